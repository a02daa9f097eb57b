import styles from './spinner.module.css';

export interface SpinnerProps {
  /** Read by assistive technology; the spinner itself shows no text. */
  label: string;
}

export function Spinner({ label }: SpinnerProps) {
  return (
    <span role="status" aria-label={label} className={styles.spinner} />
  );
}
