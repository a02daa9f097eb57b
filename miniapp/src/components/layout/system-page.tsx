import type { ReactNode } from 'react';
import styles from './system-page.module.css';

export interface SystemPageProps {
  icon: string;
  header: string;
  description: string;
  /** SPEC §2: some system pages have a button, others none. */
  action?: ReactNode;
}

/** SPEC §2 system pages: an icon, a header, a description and maybe a button. */
export function SystemPage({ icon, header, description, action }: SystemPageProps) {
  return (
    <section className={styles.page}>
      <span className={styles.icon} aria-hidden="true">
        {icon}
      </span>
      <h1 className={styles.header}>{header}</h1>
      <p className={styles.description}>{description}</p>
      {action}
    </section>
  );
}
