import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { trackEvent } from '@/lib/analytics';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { cashierKeys, getPaymentInfo } from './api';
import { cashierErrorText } from './errors';
import { CancelWithdrawalButton, useMethodName } from './payment-item';

/** One payment's details (SPEC §3 deposit info). */
export function Receipt({ id, poll = false }: { id: string; poll?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const info = useQuery({
    queryKey: cashierKeys.info(id),
    queryFn: ({ signal }) => getPaymentInfo(id, { signal }),
    // A pending deposit is settled by the provider's webhook: follow it for a while.
    refetchInterval: (query) => (poll && query.state.data?.status === 'pending' ? 3000 : false),
  });
  const method = useMethodName(info.data?.method ?? '');
  const succeeded = info.data?.type === 'deposit' && info.data.status === 'success' ? info.data : null;
  useEffect(() => {
    // SPEC §4 make_deposit: once per successful deposit, whatever the reloads of its page.
    if (!succeeded) return;
    const key = `croupier:tracked-deposit:${succeeded.id}`;
    if (window.sessionStorage.getItem(key)) return;
    window.sessionStorage.setItem(key, '1');
    trackEvent('make_deposit', { id: succeeded.id, amount: succeeded.amount.amount, currency: succeeded.amount.currency, method: succeeded.method });
  }, [succeeded]);
  if (info.isPending) return <Spinner label={t('app.loading')} />;
  if (!info.data) return <p className={screens.alert}>{cashierErrorText(t, info.error)}</p>;
  const payment = info.data;
  return (
    <section className={screens.card} data-testid="receipt" data-status={payment.status}>
      <h2 className={screens.cardTitle}>{t(`cashier.kind.${payment.type}`)}</h2>
      <dl className={screens.dl}>
        <dt>{t('cashier.receipt.amount')}</dt>
        <dd className={screens.amount}>{formatMoney(payment.amount.amount, payment.amount.currency, locale)}</dd>
        <dt>{t('cashier.receipt.status')}</dt>
        <dd>
          <span className={screens.status} data-status={payment.status}>
            {t(`cashier.status.${payment.status as 'pending'}`, { defaultValue: payment.status })}
          </span>
        </dd>
        <dt>{t('cashier.method')}</dt>
        <dd>{method}</dd>
        <dt>{t('cashier.receipt.created')}</dt>
        <dd>
          {formatDate(payment.created_at)} {formatTime(payment.created_at)}
        </dd>
        <dt>{t('cashier.receipt.updated')}</dt>
        <dd>
          {formatDate(payment.updated_at)} {formatTime(payment.updated_at)}
        </dd>
        <dt>{t('cashier.receipt.id')}</dt>
        <dd className={screens.mono}>{payment.id}</dd>
      </dl>
      <CancelWithdrawalButton payment={payment} onCancelled={() => void info.refetch()} />
    </section>
  );
}
