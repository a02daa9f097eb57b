import styles from './field.module.css';

/** A message about the whole form (not one field); announced to assistive technology. */
export function FormAlert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className={styles.formAlert}>
      {message}
    </p>
  );
}
