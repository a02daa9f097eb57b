import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import screens from '@/components/screens.module.css';
import { accountKeys } from '@/features/account';
import { ApiError } from '@/lib/api/client';
import { formatDate, formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { showToast } from '@/lib/toasts/toast-store';
import { cashbackKeys, payoutCashback, removeCashback } from './api/change-cashback';
import type { Cashback } from './api/get-cashbacks';

/** Whether a cashback can still be claimed at `nowSeconds` (active, and its claim time not past). */
export function isClaimable(cashback: Cashback, nowSeconds: number): boolean {
  return cashback.status === 'active' && (cashback.receiving_expired_at === null || cashback.receiving_expired_at > nowSeconds);
}

/** The message for a refused claim: the field code's own, else a general one. */
function claimErrorKey(error: unknown): 'cashbacks.expired' | 'cashbacks.locked' | 'cashbacks.failed' {
  const code = error instanceof ApiError ? error.fieldErrors.cashback_id?.[0] : undefined;
  if (code === 'CODE_EXPIRED') return 'cashbacks.expired';
  if (code === 'LOCKED' || code === 'NOT_FOUND') return 'cashbacks.locked';
  return 'cashbacks.failed';
}

/** A cashback: what it is, its amount and dates, and for an active one Claim and Decline. */
export function CashbackItem({ cashback, onChanged }: { cashback: Cashback; onChanged?: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const [declining, setDeclining] = useState(false);
  // When the item was shown: the server refuses a claim past its time anyway.
  const [shownAt] = useState(() => Date.now() / 1000);
  const done = () => {
    void queryClient.invalidateQueries({ queryKey: cashbackKeys.all });
    void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    onChanged?.();
  };
  const fail = (error: unknown) => {
    showToast({ type: 'error', message: t(claimErrorKey(error)) });
  };
  const payout = useMutation({ mutationFn: () => payoutCashback(cashback.id), onSuccess: done, onError: fail });
  const remove = useMutation({ mutationFn: () => removeCashback(cashback.id), onSuccess: done, onError: fail });
  const busy = payout.isPending || remove.isPending;
  const amount = formatMoney(cashback.amount.amount, cashback.amount.currency, locale);
  const claimable = isClaimable(cashback, shownAt);
  return (
    <li className={screens.item} data-testid="cashback-item" data-cashback-id={cashback.id} data-status={cashback.status}>
      <span>{cashback.description}</span>
      <span className={screens.amount}>{amount}</span>
      <span className={screens.muted}>
        {cashback.paid_out_at !== null
          ? t('cashbacks.paidOn', { date: formatDate(cashback.paid_out_at) })
          : cashback.receiving_expired_at !== null
            ? t('cashbacks.claimUntil', { date: formatDate(cashback.receiving_expired_at) })
            : t('cashbacks.periodEnd', { date: formatDate(cashback.end_date) })}
      </span>
      {cashback.pays === 'bonus' && cashback.status !== 'removed' && cashback.status !== 'rejected' && (
        <span className={screens.muted} data-testid="cashback-as-bonus">
          {t('cashbacks.asBonus')}
        </span>
      )}
      {cashback.status === 'pending' && (
        <span className={screens.muted} data-testid="cashback-pending">
          {t('cashbacks.pendingNote')}
        </span>
      )}
      <span className={screens.status} data-status={cashback.status}>
        {t(`cashbacks.status.${cashback.status}`)}
      </span>
      {claimable && !declining && (
        <span>
          <Button data-testid="cashback-payout" disabled={busy} onClick={() => { payout.mutate(); }}>
            {t('cashbacks.claim', { amount })}
          </Button>{' '}
          <Button variant="secondary" data-testid="cashback-remove" disabled={busy} onClick={() => { setDeclining(true); }}>
            {t('cashbacks.decline')}
          </Button>
        </span>
      )}
      {claimable && declining && (
        <span role="group" aria-label={t('cashbacks.declineQuestion')} data-testid="cashback-remove-confirm">
          <span>{t('cashbacks.declineQuestion')}</span>{' '}
          <Button variant="secondary" data-testid="cashback-remove-yes" disabled={busy} onClick={() => { remove.mutate(); }}>
            {t('cashbacks.declineYes')}
          </Button>{' '}
          <Button data-testid="cashback-remove-no" onClick={() => { setDeclining(false); }}>
            {t('cashbacks.declineNo')}
          </Button>
        </span>
      )}
    </li>
  );
}
