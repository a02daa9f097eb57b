import { useTranslation } from 'react-i18next';
import screens from '@/components/screens.module.css';
import { Button } from '@/components/ui/button';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import type { Amount, BetsFilter } from './api/bets';
import { useProviderTitle } from './api/get-catalog';
import { useProviderBets, type ProviderBet } from './api/providers';
import { systemLabel } from './labels';
import { formatOdds } from './odds';
import { useSlip } from './slip-store';
import styles from './betting.module.css';

function ProviderBetCard({ bet }: { bet: ProviderBet }) {
  const { t } = useTranslation();
  const title = useProviderTitle();
  const locale = useLocale();
  const { format } = useSlip();
  const money = (amount: Amount) => formatMoney(amount.amount, amount.currency, locale);
  const kind =
    bet.kind === 'system'
      ? t('betting.bets.kind.providerSystem', { system: systemLabel(bet.system ?? '', bet.selections.length, t) })
      : t(`betting.bets.kind.${bet.kind}`, { count: bet.selections.length });
  return (
    <li className={styles.bet} data-testid="provider-bet-card" data-status={bet.status} data-bet={bet.bet_id}>
      <div className={styles.betHead}>
        <strong>{kind}</strong>
        <span className={styles.badge} data-testid="bet-status">
          {t(`betting.bets.statuses.${bet.status}`)}
        </span>
      </div>
      <p className={styles.muted}>
        {t('betting.bets.atProvider', { provider: title(bet.provider), id: bet.bet_id })} ·{' '}
        {t('betting.bets.placedAt', { date: `${formatDate(bet.created_at)} ${formatTime(bet.created_at)}` })}
      </p>
      <ul className={styles.betLegs}>
        {bet.selections.map((selection) => (
          <li key={selection.id} className={styles.betLeg} data-testid="bet-selection" data-result={selection.result}>
            <div className={styles.slipEntryText}>
              <strong>{selection.selection}</strong>
              <span className={styles.muted}>
                {selection.market} · {selection.event}
              </span>
            </div>
            <div className={styles.slipEntryOdds}>
              <strong>{formatOdds(selection.odds, format)}</strong>
              <span className={styles.result} data-result={selection.result}>
                {t(`betting.bets.results.${selection.result}`)}
                {selection.dead_heat ? ` · ${t('betting.bets.deadHeat', { factor: selection.dead_heat })}` : null}
              </span>
            </div>
          </li>
        ))}
      </ul>
      <dl className={styles.totals}>
        <dt>{t('betting.bets.stake')}</dt>
        <dd data-testid="bet-stake">{money(bet.stake)}</dd>
        {bet.status === 'open' ? (
          <>
            <dt>{t('betting.bets.potential')}</dt>
            <dd data-testid="bet-potential">{money(bet.potential)}</dd>
          </>
        ) : (
          <>
            <dt>{t('betting.bets.payout')}</dt>
            <dd data-testid="bet-payout">{money(bet.payout)}</dd>
          </>
        )}
      </dl>
    </li>
  );
}

/** The player's bets at one external provider (`filter`: open, settled or all), page by page. */
export function ProviderBetsList({ provider, filter }: { provider: string; filter: BetsFilter }) {
  const { t } = useTranslation();
  const title = useProviderTitle();
  const bets = useProviderBets(provider, filter);
  const items = bets.data?.pages.flatMap((page) => page.items) ?? [];
  if (bets.isError) {
    return (
      <p className={screens.muted} role="alert">
        {t('betting.bets.loadFailed')}
      </p>
    );
  }
  if (bets.isSuccess && items.length === 0) {
    return (
      <p className={screens.muted} data-testid="bets-empty">
        {t(`betting.bets.providerEmpty.${filter}`, { provider: title(provider) })}
      </p>
    );
  }
  return (
    <>
      <ul className={styles.bets} aria-busy={bets.isPending} data-testid="provider-bets">
        {items.map((bet) => (
          <ProviderBetCard key={`${bet.provider}:${bet.bet_id}`} bet={bet} />
        ))}
      </ul>
      {bets.hasNextPage ? (
        <Button variant="secondary" disabled={bets.isFetchingNextPage} data-testid="provider-bets-more" onClick={() => void bets.fetchNextPage()}>
          {t('lobby.more')}
        </Button>
      ) : null}
    </>
  );
}
