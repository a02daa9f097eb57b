import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { useGeneralInfo } from '@/features/metadata';
import { ApiError } from '@/lib/api/client';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { nextPageParam } from '@/lib/paging';
import {
  createHistoryExport,
  getGameHistory,
  getHistoryExport,
  houseRoundOf,
  type HistoryExport,
  type HistoryRound,
} from './api';
import { VerifyRound } from './fairness-panel';
import styles from './game-history.module.css';

export const gameHistoryKeys = {
  all: ['games', 'history'] as const,
  rounds: () => [...gameHistoryKeys.all, 'rounds'] as const,
  export: () => [...gameHistoryKeys.all, 'export'] as const,
};

/** How often a pending export is asked about. */
export const EXPORT_POLL_MS = 1000;

function RoundRow({ round }: { round: HistoryRound }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const house = houseRoundOf(round);
  const money = (amount: string) => formatMoney(amount, round.currency, locale);
  return (
    <li className={`${screens.item} ${styles.round}`} data-testid="game-round" data-round={round.round}>
      <span>
        <Link to={localizePath(`/game/${round.game.sysname}`, locale)}>{round.game.name}</Link>
        {' · '}
        {formatDate(round.created_at)} {formatTime(round.created_at)}
        {round.mode === 'demo' && <> · {t('gameHistory.demo')}</>}
        {round.status === 'open' && <> · {t('gameHistory.open')}</>}
      </span>
      <dl className={styles.stats}>
        <div className={styles.stat}>
          <dt>{t('gameHistory.bet')}</dt>
          <dd data-testid="round-bet">{money(round.bet)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>{t('gameHistory.win')}</dt>
          <dd data-testid="round-win">{money(round.win)}</dd>
        </div>
        <div className={styles.stat}>
          <dt>{t('gameHistory.balanceAfter')}</dt>
          <dd data-testid="round-balance">{round.balance_after === null ? '—' : money(round.balance_after)}</dd>
        </div>
      </dl>
      {house && (
        <div className={styles.check}>
          <VerifyRound round={house} />
        </div>
      )}
    </li>
  );
}

/** The export button and the latest export's state: pending (polled), ready (the CSV), expired. */
function HistoryExportPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const sending = useRef(false);
  const latest = useQuery({
    queryKey: gameHistoryKeys.export(),
    queryFn: ({ signal }) => getHistoryExport({ signal }),
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? EXPORT_POLL_MS : false),
  });
  const create = useMutation({
    mutationFn: createHistoryExport,
    onSuccess: (created) => {
      queryClient.setQueryData<HistoryExport | null>(gameHistoryKeys.export(), created);
    },
    onSettled: () => {
      sending.current = false;
    },
  });
  const current = latest.data ?? null;
  const pending = current?.status === 'pending';
  const failed = create.error ?? latest.error;
  return (
    <section className={screens.card} aria-labelledby="history-export" data-testid="history-export" data-status={current?.status ?? 'none'}>
      <h2 id="history-export" className={screens.cardTitle}>
        {t('gameHistory.exportTitle')}
      </h2>
      <p className={screens.muted}>{t('gameHistory.exportIntro')}</p>
      {pending && (
        <p role="status" className={screens.notice}>
          {t('gameHistory.exportPending')}
        </p>
      )}
      {current?.status === 'ready' && current.url && (
        <p role="status" className={screens.notice}>
          {t('gameHistory.exportReady', { count: current.rows, date: current.expires_at ? `${formatDate(current.expires_at)} ${formatTime(current.expires_at)}` : '' })}{' '}
          <a className={buttonClassName('primary')} href={current.url} download data-testid="history-download">
            {t('gameHistory.download')}
          </a>
        </p>
      )}
      {current?.status === 'expired' && <p className={screens.muted}>{t('gameHistory.exportExpired')}</p>}
      {current?.status === 'failed' && <p className={screens.alert}>{t('gameHistory.exportFailed')}</p>}
      {failed && (
        <p className={screens.alert} role="alert">
          {failed instanceof ApiError ? failed.message : t('gameHistory.exportFailed')}
        </p>
      )}
      <div>
        <Button
          variant={current?.status === 'ready' ? 'secondary' : 'primary'}
          disabled={pending || create.isPending}
          onClick={() => {
            // One request per press, however fast the presses come.
            if (sending.current) return;
            sending.current = true;
            create.mutate();
          }}
        >
          {current?.status === 'ready' ? t('gameHistory.exportAgain') : t('gameHistory.export')}
        </Button>
      </div>
    </section>
  );
}

/**
 * The player's game rounds, newest first, four at a time (SPEC §9 page size): game, time, bet,
 * win, the balance after, and for house games the provably-fair check. The export to CSV shows
 * when the operator allows it (`is_game_history_export_enabled`).
 */
export function GameHistory() {
  const { t } = useTranslation();
  const general = useGeneralInfo();
  const list = useInfiniteQuery({
    queryKey: gameHistoryKeys.rounds(),
    queryFn: ({ pageParam, signal }) => getGameHistory(pageParam, { signal }),
    initialPageParam: 0,
    getNextPageParam: nextPageParam,
  });
  const rounds = [...new Map((list.data?.pages ?? []).flatMap((page) => page.items).map((round) => [round.round, round])).values()];
  return (
    <>
      {general.data?.is_game_history_export_enabled && <HistoryExportPanel />}
      <section className={screens.card} aria-labelledby="game-history" data-testid="game-history">
        <h2 id="game-history" className={screens.cardTitle}>
          {t('gameHistory.title')}
        </h2>
        {list.isPending ? (
          <Spinner label={t('app.loading')} />
        ) : list.isError ? (
          <p className={screens.alert}>{list.error instanceof ApiError ? list.error.message : t('gameHistory.loadFailed')}</p>
        ) : rounds.length === 0 ? (
          <p className={screens.notice}>{t('gameHistory.empty')}</p>
        ) : (
          <ul className={screens.list}>
            {rounds.map((round) => (
              <RoundRow key={round.round} round={round} />
            ))}
          </ul>
        )}
        {list.hasNextPage && (
          <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {t('lobby.more')}
          </Button>
        )}
      </section>
    </>
  );
}
