import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
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
