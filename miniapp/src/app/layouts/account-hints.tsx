// The default layout's hints for a signed-in player (SPEC §4): their own chunk, loaded once the
// account is known (issue 23: a guest's first visit neither downloads nor evaluates them, nor
// the contact confirmation form they bring).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useSiteConfig } from '@/config/site-config';
import type { AccountInfo } from '@/features/account/api/get-account-info';
import { ConfirmContactHint } from '@/features/auth/components/confirm-contact-hint';
import { RegistrationHint } from '@/features/auth/components/registration-hint';
import { useTimeLeft } from '@/features/auth/components/use-countdown';
import { registrationHintLeft } from '@/features/auth/hints';
import { hasDepositQueryOptions } from '@/features/cashier/api';

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

export default function AccountHints({ account }: { account: AccountInfo }) {
  const { cashier, common } = useSiteConfig();
  return (
    <>
      {cashier.registrationHint && <RegistrationHintSlot account={account} />}
      {common.confirmHint && <ConfirmContactHint regTime={account.reg_time} />}
    </>
  );
}
