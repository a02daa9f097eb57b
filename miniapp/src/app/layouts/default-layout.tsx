import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import { useAccount } from '@/features/auth/api/get-account-info';
import { ConfirmContactHint } from '@/features/auth/components/confirm-contact-hint';
import { RegistrationHint } from '@/features/auth/components/registration-hint';
import styles from './layouts.module.css';
import { MobileBottomMenu } from './mobile-bottom-menu';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** Until the cashier exists no player has a deposit, so the registration hint treats them all as new. */
const HAS_DEPOSIT = false;

function Hints() {
  const account = useAccount();
  const { cashier, common } = useSiteConfig();
  if (!account) return null;
  return (
    <div className={styles.hints}>
      {cashier.registrationHint && <RegistrationHint regTime={account.reg_time} hasDeposit={HAS_DEPOSIT} />}
      {common.confirmHint && <ConfirmContactHint regTime={account.reg_time} />}
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
