import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { accountKeys } from '@/features/account';
import { openConfirm } from '@/components/dialogs/confirm-dialog';
import { ApiError } from '@/lib/api/client';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { haptic } from '@/lib/telegram';
import { showToast } from '@/lib/toasts/toast-store';
import { BETS_FILTERS, betKeys, cashOut, useBets, type Amount, type Bet, type BetsFilter } from './api/bets';
import { useProviderTitle, useSports } from './api/get-catalog';
import { marketLabel, pickLabel, systemLabel } from './labels';
import { formatOdds } from './odds';
import { ProviderBetsList } from './provider-bets';
import { useSlip } from './slip-store';
import styles from './betting.module.css';

function money(amount: Amount, locale: ReturnType<typeof useLocale>): string {
  return formatMoney(amount.amount, amount.currency, locale);
}

function useCashOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, amount }: { id: number; amount: string }) => cashOut(id, amount),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: betKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
  });
}

function BetCard({ bet }: { bet: Bet }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { format } = useSlip();
  const cash = useCashOut();
  const offer = bet.cash_out;
  const kind =
    bet.kind === 'system'
      ? t('betting.bets.kind.system', { system: systemLabel(bet.system ?? '', bet.selections.length, t), lines: bet.lines })
      : t(`betting.bets.kind.${bet.kind}`, { count: bet.selections.length });
  const askCashOut = (amount: Amount) => {
    openConfirm({
      name: 'cash-out-confirm',
      title: t('betting.bets.cashOutConfirmTitle'),
      text: [t('betting.bets.cashOutConfirm', { amount: money(amount, locale) })],
      confirmLabel: t('betting.bets.cashOutConfirmButton'),
      cancelLabel: t('betting.bets.cancel'),
      testId: 'cash-out-confirm',
      onConfirm: () => {
        cash.mutate(
          { id: bet.id, amount: amount.amount },
          {
            onSuccess: (done) => {
              haptic('success');
              showToast({ type: 'success', message: t('betting.bets.cashOutDone', { amount: money(done.payout, locale) }) });
            },
            onError: (error) => {
              haptic('error');
              const now = error instanceof ApiError ? error.stringData('cash_out') : undefined;
              showToast({
                type: 'error',
                message: now
                  ? t('betting.bets.cashOutChanged', { amount: formatMoney(now, amount.currency, locale) })
                  : error instanceof ApiError && error.message
                    ? error.message
                    : t('betting.bets.cashOutFailed'),
              });
            },
          },
        );
      },
    });
  };
  return (
    <li className={styles.bet} data-testid="bet-card" data-status={bet.status}>
      <div className={styles.betHead}>
        <strong>{kind}</strong>
        <span className={styles.badge} data-testid="bet-status">
          {t(`betting.bets.statuses.${bet.status}`)}
        </span>
      </div>
      <p className={styles.muted}>{t('betting.bets.placedAt', { date: `${formatDate(bet.created_at)} ${formatTime(bet.created_at)}` })}</p>
      <ul className={styles.betLegs}>
        {bet.selections.map((selection) => (
          <li key={selection.selection_id} className={styles.betLeg} data-testid="bet-selection" data-result={selection.result}>
            <div className={styles.slipEntryText}>
              <strong>{pickLabel(selection, t)}</strong>
              <span className={styles.muted}>
                {marketLabel(selection.market, t)} · {selection.event}
              </span>
            </div>
            <div className={styles.slipEntryOdds}>
              <strong>{formatOdds(selection.odds, format)}</strong>
              <span className={styles.result} data-result={selection.result}>
                {t(`betting.bets.results.${selection.result}`)}
              </span>
            </div>
          </li>
        ))}
      </ul>
      <dl className={styles.totals}>
        <dt>{t('betting.bets.stake')}</dt>
        <dd data-testid="bet-stake">{money(bet.stake, locale)}</dd>
        {bet.status === 'open' ? (
          <>
            <dt>{t('betting.bets.potential')}</dt>
            <dd data-testid="bet-potential">{money(bet.potential, locale)}</dd>
          </>
        ) : (
          <>
            <dt>{t('betting.bets.payout')}</dt>
            <dd data-testid="bet-payout">{money(bet.payout, locale)}</dd>
          </>
        )}
      </dl>
      {bet.status === 'open' && offer ? (
        <Button variant="secondary" data-testid="bet-cash-out" disabled={cash.isPending} onClick={() => { askCashOut(offer); }}>
          {t('betting.bets.cashOut', { amount: money(offer, locale) })}
        </Button>
      ) : null}
    </li>
  );
}

const NO_PROVIDERS: readonly string[] = [];

/** The house book's bets with the filter. */
function HouseBets({ filter }: { filter: BetsFilter }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { format } = useSlip();
  const bets = useBets(filter, format);
  return bets.isError ? (
    <p className={screens.muted} role="alert">
      {t('betting.bets.loadFailed')}
    </p>
  ) : bets.data?.items.length === 0 ? (
    <p className={screens.muted} data-testid="bets-empty">
      {t(`betting.bets.empty.${filter}`)} <Link to={localizePath(paths.betting, locale)}>{t('betting.bets.toBetting')}</Link>
    </p>
  ) : (
    <ul className={styles.bets} aria-busy={bets.isPending}>
      {bets.data?.items.map((bet) => <BetCard key={bet.id} bet={bet} />)}
    </ul>
  );
}

/**
 * The player's sports bets: open, settled or all, each with its selections' results and, while
 * open, the cash-out offer. With external providers configured, a switch (`?book=` in the
 * address) shows the bets placed at each provider instead of the house's.
 */
export function PlayerBets({ initial = 'open' }: { initial?: BetsFilter }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<BetsFilter>(initial);
  const [params, setParams] = useSearchParams();
  const sports = useSports();
  const title = useProviderTitle();
  const providers = sports.data?.providers ?? NO_PROVIDERS;
  const asked = params.get('book');
  const book = asked !== null && providers.includes(asked) ? asked : null;
  // A provider's address waits for the list of providers rather than showing the house's bets first.
  const deciding = asked !== null && sports.isPending;
  const chooseBook = (next: string | null) => {
    const search = new URLSearchParams(params);
    if (next === null) search.delete('book');
    else search.set('book', next);
    setParams(search, { replace: true });
  };
  return (
    <section className={screens.card} aria-labelledby="sports-bets" data-testid="player-bets">
      <h2 id="sports-bets" className={screens.cardTitle}>
        {t('betting.bets.sportsBets')}
      </h2>
      {providers.length > 0 ? (
        <div className={screens.tabs} role="group" aria-label={t('betting.books.label')} data-testid="bets-books">
          <button type="button" className={screens.tab} aria-pressed={book === null} data-testid="bets-book-house" onClick={() => { chooseBook(null); }}>
            {t('betting.books.house')}
          </button>
          {providers.map((name) => (
            <button key={name} type="button" className={screens.tab} aria-pressed={book === name} data-testid={`bets-book-${name}`} onClick={() => { chooseBook(name); }}>
              {title(name)}
            </button>
          ))}
        </div>
      ) : null}
      <div className={screens.tabs} role="group" aria-label={t('betting.bets.filtersLabel')}>
        {BETS_FILTERS.map((value) => (
          <button key={value} type="button" className={screens.tab} aria-pressed={filter === value} data-testid={`bets-${value}`} onClick={() => { setFilter(value); }}>
            {t(`betting.bets.filters.${value}`)}
          </button>
        ))}
      </div>
      {deciding ? null : book === null ? <HouseBets filter={filter} /> : <ProviderBetsList provider={book} filter={filter} />}
    </section>
  );
}
