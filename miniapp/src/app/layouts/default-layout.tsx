import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import { useAccount, type AccountInfo } from '@/features/account/api/get-account-info';
import { ConfirmContactHint } from '@/features/auth/components/confirm-contact-hint';
import { RegistrationHint } from '@/features/auth/components/registration-hint';
import { useTimeLeft } from '@/features/auth/components/use-countdown';
import { registrationHintLeft } from '@/features/auth/hints';
import { hasDepositQueryOptions } from '@/features/cashier/api';
import styles from './layouts.module.css';
import { MobileBottomMenu } from './mobile-bottom-menu';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/**
 * SPEC §4 registration hint. The server is asked about deposits only inside the 2 hours after
 * registration, and again whenever the balance changes; until it answers the hint stays hidden,
 * and if it cannot answer the hint shows (SPEC §8: a failed load leaves the default, no deposit).
 */
function RegistrationHintSlot({ account }: { account: AccountInfo }) {
  const inWindow = useTimeLeft((now) => registrationHintLeft(account.reg_time, now, false)) > 0;
  const deposit = useQuery({
    ...hasDepositQueryOptions(account.uid, account.balance_main.amount),
    enabled: inWindow,
    // While a new balance is being checked, the last answer stands.
    placeholderData: keepPreviousData,
  });
  if (!inWindow || deposit.isPending) return null;
  return <RegistrationHint regTime={account.reg_time} hasDeposit={deposit.data ?? false} />;
}

function Hints() {
  const account = useAccount();
  const { cashier, common } = useSiteConfig();
  if (!account) return null;
  return (
    <div className={styles.hints}>
      {cashier.registrationHint && <RegistrationHintSlot account={account} />}
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
