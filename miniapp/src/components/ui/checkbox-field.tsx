import { useId, type ReactNode } from 'react';
import styles from './field.module.css';

export interface CheckboxFieldProps {
  name: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
  error?: string | undefined;
}

export function CheckboxField({ name, checked, onCheckedChange, children, error }: CheckboxFieldProps) {
  const id = useId();
  return (
    <div className={styles.field}>
      <div className={styles.checkboxRow}>
        <input
          id={id}
          name={name}
          type="checkbox"
          className={styles.checkbox}
          checked={checked}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(event) => {
            onCheckedChange(event.target.checked);
          }}
        />
        <label htmlFor={id} className={styles.checkboxLabel}>
          {children}
        </label>
      </div>
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
