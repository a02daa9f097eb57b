import { Outlet } from 'react-router';
import { SiteHeader } from '@/components/layout/site-header';
import styles from './root-layout.module.css';

export function RootLayout() {
  return (
    <div className={styles.shell}>
      <SiteHeader />
      <main className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
