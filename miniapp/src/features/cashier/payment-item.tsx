import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { accountKeys } from '@/features/account';
import screens from '@/components/screens.module.css';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast } from '@/lib/toasts/toast-store';
import { cancelWithdrawal, cashierKeys, getDepositSettings, type PaymentInfo } from './api';
import { cashierErrorText } from './errors';

export function receiptPath(id: string): string {
  return `/cashier/receipt?${new URLSearchParams({ id }).toString()}`;
}

/** A withdrawal still waiting for approval can be cancelled; the money returns to the balance. */
export function CancelWithdrawalButton({ payment, onCancelled }: { payment: PaymentInfo; onCancelled?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => cancelWithdrawal(payment.id),
    onSuccess: () => {
      showToast({ type: 'success', message: t('cashier.cancelled') });
      void queryClient.invalidateQueries({ queryKey: cashierKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      onCancelled?.();
    },
    onError: (error) => showToast({ type: 'error', message: cashierErrorText(t, error) ?? t('errors.unknown') }),
  });
  if (payment.type !== 'withdrawal' || payment.status !== 'pending') return null;
  return (
    <Button variant="secondary" disabled={cancel.isPending} onClick={() => { cancel.mutate(); }}>
      {t('cashier.cancelWithdrawal')}
    </Button>
  );
}

/** A method's name in the page's language (the history answers its sysname). */
export function useMethodName(sysname: string): string {
  const { data } = useQuery({ queryKey: cashierKeys.deposit(), queryFn: ({ signal }) => getDepositSettings({ signal }), staleTime: 5 * 60_000 });
  return data?.methods.find((method) => method.sysname === sysname)?.name ?? sysname;
}

export function PaymentItem({ payment, onChanged }: { payment: PaymentInfo; onChanged?: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const method = useMethodName(payment.method);
  return (
    <li className={screens.item} data-testid="payment-item" data-type={payment.type} data-status={payment.status}>
      <Link to={localizePath(receiptPath(payment.id), locale)}>
        {t(`cashier.kind.${payment.type}`)} · {method}
      </Link>
      <span className={screens.amount}>{formatMoney(payment.amount.amount, payment.amount.currency, locale)}</span>
      <span className={screens.muted}>
        {formatDate(payment.created_at)} {formatTime(payment.created_at)}
      </span>
      <span className={screens.status} data-status={payment.status}>
        {t(`cashier.status.${payment.status as 'pending'}`, { defaultValue: payment.status })}
      </span>
      {onChanged && <CancelWithdrawalButton payment={payment} onCancelled={onChanged} />}
    </li>
  );
}
