import type { ReactNode } from 'react';
import { Icon, type IconName } from '@/components/ui/icon';
import styles from './system-page.module.css';

export interface SystemPageProps {
  icon: IconName;
  header: string;
  description: string;
  /** SPEC §2: some system pages have a button, others none. */
  action?: ReactNode;
  testId?: string;
}

/** SPEC §2 system pages: an icon, a header, a description and maybe a button. */
export function SystemPage({ icon, header, description, action, testId }: SystemPageProps) {
  return (
    <section className={styles.page} data-testid={testId}>
      <span className={styles.icon} aria-hidden="true">
        <Icon name={icon} size={36} />
      </span>
      <h1 className={styles.header}>{header}</h1>
      <p className={styles.description}>{description}</p>
      {action}
    </section>
  );
}
