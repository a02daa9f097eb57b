import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { BonusHistoryItem } from '@/features/bonuses';
import { CashbackItem } from '@/features/cashbacks';
import type { RequestOptions } from '@/lib/api/client';
import { nextPageParam } from '@/lib/paging';
import { cashierKeys, getBonusHistory, getCashbackHistory, getHistory } from './api';
import { CashierFrame } from './cashier-nav';
import { cashierErrorText } from './errors';
import { PaymentItem } from './payment-item';

export const HISTORY_TABS = ['deposit', 'withdrawal', 'bonuses', 'cashbacks'] as const;
export type HistoryTab = (typeof HISTORY_TABS)[number];

/** SPEC §4: the `tab` query parameter picks the tab on arrival; unknown values fall back to deposits. */
export function historyTab(value: string | null): HistoryTab {
  return HISTORY_TABS.find((tab) => tab === value) ?? 'deposit';
}

export { nextOffset } from '@/lib/paging';

interface PagedHistoryProps<T extends { id: string | number }> {
  tab: HistoryTab;
  load: (offset: number, options: RequestOptions) => Promise<{ total: number; items: T[] }>;
  item: (item: T, refetch: () => void) => ReactNode;
}

/** One tab's list, four by four. */
function PagedHistory<T extends { id: string | number }>({ tab, load, item }: PagedHistoryProps<T>) {
  const { t } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: cashierKeys.history(tab),
    queryFn: ({ pageParam, signal }) => load(pageParam, { signal }),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
  });
  // Items are unique by id (SPEC §3) even when a new payment shifts the pages.
  const items = [...new Map((list.data?.pages ?? []).flatMap((page) => page.items).map((entry) => [entry.id, entry])).values()];
  if (list.isPending) return <Spinner label={t('app.loading')} />;
  if (list.isError) return <p className={screens.alert}>{cashierErrorText(t, list.error)}</p>;
  return (
    <>
      {items.length === 0 ? (
        <p className={screens.notice}>{t('cashier.historyEmpty')}</p>
      ) : (
        <ul className={screens.list} data-testid="history-list">
          {items.map((entry) => (
            <Fragment key={entry.id}>{item(entry, () => void list.refetch())}</Fragment>
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {t('lobby.more')}
        </Button>
      )}
    </>
  );
}

/** /cashier/history?tab=deposit|withdrawal|bonuses|cashbacks; switching clears the list and reloads. */
export function HistoryPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = historyTab(params.get('tab'));

  return (
    <CashierFrame title={t('pages.cashierHistory')}>
      <div className={screens.page}>
        <div className={screens.tabs} role="tablist" aria-label={t('cashier.historyTabs')}>
          {HISTORY_TABS.map((key) => (
            <button
              key={key}
              type="button"
              role="tab"
              className={screens.tab}
              aria-selected={key === tab}
              onClick={() => { setParams({ tab: key }, { replace: true }); }}
            >
              {t(`cashier.history.${key}`)}
            </button>
          ))}
        </div>
        <div role="tabpanel" aria-label={t(`cashier.history.${tab}`)}>
          {/* Keyed by tab: switching drops the old list and loads the new one from its first page. */}
          {tab === 'deposit' || tab === 'withdrawal' ? (
            <PagedHistory
              key={tab}
              tab={tab}
              load={(offset, options) => getHistory(tab, offset, options)}
              item={(payment, refetch) => <PaymentItem payment={payment} onChanged={refetch} />}
            />
          ) : tab === 'bonuses' ? (
            <PagedHistory key={tab} tab={tab} load={getBonusHistory} item={(bonus) => <BonusHistoryItem bonus={bonus} />} />
          ) : (
            <PagedHistory
              key={tab}
              tab={tab}
              load={getCashbackHistory}
              item={(cashback, refetch) => <CashbackItem cashback={cashback} onChanged={refetch} />}
            />
          )}
        </div>
      </div>
    </CashierFrame>
  );
}
