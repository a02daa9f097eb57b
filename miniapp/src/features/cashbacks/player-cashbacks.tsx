import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { cashbackKeys } from './api/change-cashback';
import { getCashbacks } from './api/get-cashbacks';
import { CashbackItem } from './cashback-item';

/** How many cashbacks the profile tab shows, newest first. */
export const PROFILE_CASHBACKS = 50;

/** /profile/cashback: the player's cashbacks, the active ones to claim or decline. */
export function PlayerCashbacks() {
  const { t } = useTranslation();
  const list = useQuery({
    queryKey: cashbackKeys.list(),
    queryFn: ({ signal }) => getCashbacks({ count: PROFILE_CASHBACKS, statuses: ['pending', 'active', 'paid_out'] }, { signal }),
  });
  if (list.isPending) return <Spinner label={t('app.loading')} />;
  if (list.isError) return <p className={screens.alert}>{t('cashbacks.failed')}</p>;
  if (list.data.items.length === 0) {
    return (
      <p className={screens.notice} data-testid="cashbacks-none">
        {t('cashbacks.none')}
      </p>
    );
  }
  return (
    <ul className={screens.list} data-testid="cashback-list">
      {list.data.items.map((cashback) => (
        <CashbackItem key={cashback.id} cashback={cashback} />
      ))}
    </ul>
  );
}
