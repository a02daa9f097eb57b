import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { afterPointerRelease } from '@/lib/pointer';
import { applyMask } from '@/lib/validation';
import { Icon } from './icon';
import styles from './field.module.css';

type NativeInput = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'onBlur' | 'name'>;

export interface TextFieldProps extends NativeInput {
  label: string;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  onBlur?: () => void;
  /** The message shown under the field; marks it invalid. */
  error?: string | undefined;
  hint?: ReactNode;
  /** SPEC §5 mask: # digit, @ letter, * letter or digit. */
  mask?: string | undefined;
  /** A prefix shown inside the field (a phone country code). */
  adornment?: ReactNode;
}

export function TextField({
  label,
  name,
  value,
  onValueChange,
  onBlur,
  error,
  hint,
  mask,
  adornment,
  type = 'text',
  className,
  ...input
}: TextFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const [revealed, setRevealed] = useState(false);
  const isPassword = type === 'password';
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');

  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <div className={styles.control} data-invalid={error ? '' : undefined}>
        {adornment && <span className={styles.adornment}>{adornment}</span>}
        <input
          {...input}
          id={id}
          name={name}
          type={isPassword && revealed ? 'text' : type}
          value={value}
          className={styles.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => {
            onValueChange(mask ? applyMask(event.target.value, mask) : event.target.value);
          }}
          onBlur={() => {
            if (onBlur) afterPointerRelease(onBlur);
          }}
        />
        {isPassword && (
          <button
            type="button"
            className={styles.reveal}
            aria-pressed={revealed}
            aria-label={t(revealed ? 'form.hidePassword' : 'form.showPassword')}
            onClick={() => {
              setRevealed((current) => !current);
            }}
          >
            <Icon name={revealed ? 'eyeOff' : 'eye'} />
          </button>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className={styles.error}>
          {error}
        </p>
      )}
    </div>
  );
}
