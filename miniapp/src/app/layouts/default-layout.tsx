import { lazy, Suspense, type ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useAccount } from '@/features/account/api/get-account-info';
import { loadAllMessages } from '@/lib/i18n';
import styles from './layouts.module.css';
import { MobileBottomMenu } from './mobile-bottom-menu';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

// Signed-in only, and loaded after the first render with the rest of the messages (see
// account-hints.tsx and lib/i18n/message-parts.ts).
const AccountHints = lazy(async () => (await Promise.all([import('./account-hints'), loadAllMessages()]))[0]);

function Hints() {
  const account = useAccount();
  if (!account) return null;
  return (
    <div className={styles.hints}>
      <Suspense fallback={null}>
        <AccountHints account={account} />
      </Suspense>
    </div>
  );
}

/** SPEC §2 default layout: header, hints, page, footer and (phones) the bottom menu. */
export function DefaultFrame({ children }: { children: ReactNode }) {
  return (
    <div className={styles.shell} data-layout="default">
      <SiteHeader />
      <Hints />
      <main className={styles.main}>{children}</main>
      <SiteFooter />
      <MobileBottomMenu />
    </div>
  );
}

export function DefaultLayout() {
  return (
    <DefaultFrame>
      <Outlet />
    </DefaultFrame>
  );
}
