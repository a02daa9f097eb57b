import { useTranslation } from 'react-i18next';
import screens from '@/components/screens.module.css';
import { useAccount } from '@/features/account';
import { useLocale } from '@/lib/i18n';
import { LEADERBOARD_SIZE, useLeaderboard, useLiveLeaderboard, type Leaderboard } from './api/get-leaderboard';
import type { Tournament } from './api/get-tournaments';
import { formatScore, prizeText } from './score';
import styles from './tournaments.module.css';

/** Holds the tournament's live stream open; renders nothing. */
function LiveBoard({ id }: { id: number }) {
  useLiveLeaderboard(id);
  return null;
}

/** The player's rank, score, the gap to the next prize and the prize they hold now. */
function MyStanding({ me, tournament }: { me: NonNullable<Leaderboard['me']>; tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <section className={styles.standing} data-testid="my-standing" aria-labelledby="my-standing-title">
      <h3 id="my-standing-title" className={styles.standingTitle}>
        {t('tournaments.myStanding')}
      </h3>
      <dl className={styles.facts}>
        <div>
          <dt>{t('tournaments.myRank')}</dt>
          <dd className={screens.amount}>
            <span data-testid="my-rank" data-rank={me.rank ?? ''}>
              {me.rank === null ? t('tournaments.notRanked') : `#${String(me.rank)}`}
            </span>
          </dd>
        </div>
        <div>
          <dt>{t('tournaments.score')}</dt>
          <dd className={screens.amount} data-testid="my-score" data-score={me.score}>
            {formatScore(me.score, tournament, t, locale)}
          </dd>
        </div>
      </dl>
      {me.prize && <p className={styles.prizeNow}>{t('tournaments.currentPrize', { prize: prizeText(me.prize, t, locale) })}</p>}
      {me.gap_to_prize !== null && (
        <p className={screens.muted} data-testid="my-gap">
          {t('tournaments.gap', { gap: formatScore(me.gap_to_prize, tournament, t, locale) })}
        </p>
      )}
    </section>
  );
}

/** An open place of the board, or the note that nobody has scored yet in the first one. */
function OpenPlace({ rank, note }: { rank: number; note: string | null }) {
  return (
    <tr className={styles.openRow} aria-hidden={note === null}>
      <td>{rank}</td>
      {note === null ? (
        <>
          <td className={styles.name}>—</td>
          <td className={styles.numeric}>—</td>
        </>
      ) : (
        <td colSpan={2} className={styles.name} data-testid="leaderboard-empty">
          {note}
        </td>
      )}
    </tr>
  );
}

/**
 * The top places of the board (always all of them, open ones too, so rows arriving live move
 * nothing) and the player's own standing, kept live by the tournament's stream while it has
 * not ended.
 */
export function TournamentLeaderboard({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const uid = useAccount()?.uid ?? 0;
  const board = useLeaderboard(tournament.id);
  const live = tournament.status === 'running' || tournament.status === 'upcoming';
  const items = board.data?.items.slice(0, LEADERBOARD_SIZE) ?? [];
  const me = board.data?.me ?? null;
  const meShown = items.some((row) => row.is_me);
  const open = Array.from({ length: LEADERBOARD_SIZE - items.length }, (_, index) => items.length + index + 1);
  return (
    <section className={`${screens.card} ${styles.board}`} aria-labelledby="leaderboard-title" data-testid="leaderboard" data-version={board.data?.version}>
      {live && <LiveBoard key={uid} id={tournament.id} />}
      <h2 id="leaderboard-title" className={screens.cardTitle}>
        {t('tournaments.leaderboard')}
      </h2>
      {me && <MyStanding me={me} tournament={tournament} />}
      {board.isError ? (
        <p className={screens.alert}>{t('tournaments.leaderboardFailed')}</p>
      ) : (
        <table className={`${styles.table} ${styles.boardTable}`} aria-busy={board.isPending}>
          <thead>
            <tr>
              <th scope="col">{t('tournaments.rank')}</th>
              <th scope="col">{t('tournaments.player')}</th>
              <th scope="col" className={styles.numeric}>
                {t('tournaments.score')}
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((row, index) => (
              <tr key={`${String(row.rank)}-${String(index)}`} data-testid="leaderboard-row" data-rank={row.rank} data-me={row.is_me} className={row.is_me ? styles.meRow : undefined}>
                <td>{row.rank}</td>
                <td>
                  <span className={styles.player}>
                    <span className={styles.name}>{row.name}</span>
                    {row.is_me && <span className={styles.you}> ({t('tournaments.you')})</span>}
                  </span>
                </td>
                <td className={styles.numeric}>{formatScore(row.score, tournament, t, locale)}</td>
              </tr>
            ))}
            {open.map((rank) => (
              <OpenPlace key={rank} rank={rank} note={rank === 1 && board.isSuccess ? t('tournaments.leaderboardEmpty') : null} />
            ))}
            {me && !meShown && me.rank !== null && (
              <tr data-testid="leaderboard-my-row" data-rank={me.rank} data-me="true" className={`${styles.meRow} ${styles.gapRow}`}>
                <td>{me.rank}</td>
                <td className={styles.name}>{t('tournaments.you')}</td>
                <td className={styles.numeric}>{formatScore(me.score, tournament, t, locale)}</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}
