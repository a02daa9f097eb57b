import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { gamePath, jackpotPath, tournamentPath } from '@/config/paths';
import { useNow } from '@/lib/countdown';
import { formatAmount, formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { formatTimeAgo } from '@/lib/time-format';
import { useLiveWinners, useWinners, WINNERS_FILTERS, type Winner, type WinnersFilter } from './api/get-winners';
import { PrivacySetting } from './privacy-setting';
import styles from './winners.module.css';

function isFilter(value: string | null): value is WinnersFilter {
  return WINNERS_FILTERS.some((kind) => kind === value);
}

/** Where a jackpot or tournament win came from, linked to its page. */
function WinSource({ winner }: { winner: Winner }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (winner.kind === 'jackpot' && winner.pool_id !== null) {
    return <Link to={localizePath(jackpotPath(winner.pool_id), locale)}>{t('winners.source.jackpot')}</Link>;
  }
  if (winner.kind === 'tournament' && winner.tournament_id !== null) {
    return <Link to={localizePath(tournamentPath(winner.tournament_id), locale)}>{t('winners.source.tournament')}</Link>;
  }
  return winner.kind === 'game' ? null : <span>{t(`winners.source.${winner.kind}`)}</span>;
}

function WinnerItem({ winner, now }: { winner: Winner; now: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const source = <WinSource winner={winner} />;
  return (
    <li className={`${screens.item} ${styles.item}`} data-testid="winner-item" data-winner-id={winner.id} data-kind={winner.kind}>
      <strong className={styles.name}>{winner.name}</strong>
      <span className={`${screens.amount} ${styles.amount}`}>
        {formatMoney(winner.amount.amount, winner.amount.currency, locale)}
        {winner.multiplier && <span className={styles.multiplier}>{t('winners.multiplier', { value: formatAmount(winner.multiplier, locale) })}</span>}
      </span>
      <span className={styles.where}>
        {winner.game && <Link to={localizePath(gamePath(winner.game.sysname), locale)}>{winner.game.title}</Link>}
        {winner.game && winner.kind !== 'game' && ' · '}
        {source}
      </span>
      <time className={screens.muted} dateTime={new Date(winner.at * 1000).toISOString()}>
        {formatTimeAgo(winner.at, now, locale)}
      </time>
    </li>
  );
}

const SKELETON_ITEMS = 6;

/** `/winners`: the big wins as they happen, by kind, and (signed in) how the player appears in it. */
export function WinnersPage() {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  const [params, setParams] = useSearchParams();
  const requested = params.get('kind');
  const kind: WinnersFilter = isFilter(requested) ? requested : 'all';
  const feed = useWinners(kind);
  useLiveWinners();
  const now = useNow(feed.isSuccess);

  const choose = (next: WinnersFilter) => {
    const search = new URLSearchParams(params);
    if (next === 'all') search.delete('kind');
    else search.set('kind', next);
    setParams(search, { replace: true });
  };

  return (
    <div className={screens.page} data-testid="winners-page" data-route={route}>
      <h1 className={screens.title}>{t('pages.winners')}</h1>
      <PrivacySetting />
      <div className={screens.chips} role="group" aria-label={t('winners.filters')}>
        {WINNERS_FILTERS.map((option) => (
          <button
            key={option}
            type="button"
            className={screens.chip}
            aria-pressed={option === kind}
            data-testid={`winners-filter-${option}`}
            onClick={() => {
              choose(option);
            }}
          >
            {t(`winners.kind.${option}`)}
          </button>
        ))}
      </div>
      {feed.isError ? (
        <p className={screens.alert}>{t('winners.loadFailed')}</p>
      ) : feed.data?.items.length === 0 ? (
        <p className={screens.notice} data-testid="winners-empty">
          {t('winners.empty')}
        </p>
      ) : (
        <ul className={screens.list} data-testid="winners-feed" aria-busy={feed.isPending}>
          {feed.data
            ? feed.data.items.map((winner) => <WinnerItem key={winner.id} winner={winner} now={now} />)
            : Array.from({ length: SKELETON_ITEMS }, (_, index) => (
                <li key={index} className={`${screens.item} ${styles.item} ${styles.skeleton}`} aria-hidden="true" />
              ))}
        </ul>
      )}
    </div>
  );
}
