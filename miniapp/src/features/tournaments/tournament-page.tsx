import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import screens from '@/components/screens.module.css';
import { paths, tournamentGamehallPath } from '@/config/paths';
import { accountInfoQueryOptions, isAuthenticated } from '@/features/account';
import { openSignIn } from '@/features/auth';
import { ApiError } from '@/lib/api/client';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { haptic } from '@/lib/telegram';
import { showToast } from '@/lib/toasts/toast-store';
import type { Tournament } from './api/get-tournaments';
import { useParticipate } from './api/participate';
import { TournamentLeaderboard } from './leaderboard';
import { prizeText, rankText } from './score';
import { TournamentFacts, TournamentImage } from './tournament-card';
import { TournamentAbsent, TournamentFrame, useRouteTournament } from './tournament-frame';
import { TournamentCountdown, TournamentWindow } from './tournament-window';
import styles from './tournaments.module.css';

/** "Join" for an opt-in tournament that has not ended; a guest is asked to sign in first. */
function JoinAction({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const account = useQuery(accountInfoQueryOptions());
  const join = useParticipate(tournament.id);
  const open = tournament.status === 'running' || tournament.status === 'upcoming';
  if (tournament.participation !== 'opt_in' || !open) return null;
  if (tournament.joined) {
    return (
      <p className={styles.joined} data-testid="tournament-joined">
        {t('tournaments.joined')}
      </p>
    );
  }
  if (!account.data) return null;
  if (!isAuthenticated(account.data)) {
    return (
      <Button data-testid="tournament-sign-in" onClick={() => openSignIn('authorization')}>
        {t('tournaments.signInToJoin')}
      </Button>
    );
  }
  return (
    <Button
      data-testid="tournament-join"
      disabled={join.isPending}
      onClick={() => {
        join.mutate(undefined, {
          onSuccess: () => {
            haptic('success');
            showToast({ type: 'success', message: t('tournaments.joinedToast') });
          },
          onError: (error) => {
            haptic('error');
            showToast({ type: 'error', message: error instanceof ApiError && error.message ? error.message : t('tournaments.joinFailed') });
          },
        });
      }}
    >
      {t('tournaments.join')}
    </Button>
  );
}

function Rules({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const games = tournament.game_sysnames.length;
  return (
    <section className={`${screens.card} ${styles.rules}`} aria-labelledby="tournament-rules">
      <h2 id="tournament-rules" className={screens.cardTitle}>
        {t('tournaments.rules')}
      </h2>
      <dl className={styles.rulesList} data-testid="tournament-rules">
        <dt>{t('tournaments.scoringLabel')}</dt>
        <dd>{t(`tournaments.scoring.${tournament.scoring}`)}</dd>
        <dt>{t('tournaments.minBet')}</dt>
        <dd>{tournament.min_bet ? formatMoney(tournament.min_bet.amount, tournament.min_bet.currency, locale) : t('tournaments.anyBet')}</dd>
        <dt>{t('tournaments.currencies')}</dt>
        <dd>{tournament.currencies.join(', ')}</dd>
        <dt>{t('tournaments.participation')}</dt>
        <dd>{t(`tournaments.participationMode.${tournament.participation}`)}</dd>
        <dt>{t('tournaments.games')}</dt>
        <dd>{games === 0 ? t('tournaments.everyGame') : t('tournaments.gamesCount', { count: games })}</dd>
      </dl>
    </section>
  );
}

function Prizes({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (tournament.prizes.length === 0) return null;
  return (
    <section className={`${screens.card} ${styles.prizes}`} aria-labelledby="tournament-prizes">
      <h2 id="tournament-prizes" className={screens.cardTitle}>
        {t('tournaments.prizes')}
      </h2>
      <table className={styles.table} data-testid="tournament-prizes">
        <thead>
          <tr>
            <th scope="col">{t('tournaments.rank')}</th>
            <th scope="col">{t('tournaments.prize')}</th>
          </tr>
        </thead>
        <tbody>
          {tournament.prizes.map((prize) => (
            <tr key={`${String(prize.rank_from)}-${String(prize.rank_to)}`} data-testid="tournament-prize">
              <td>{rankText(prize, t)}</td>
              <td>{prizeText(prize, t, locale)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function TournamentSkeleton() {
  return (
    <div className={styles.detail} aria-busy="true">
      <div className={`${screens.card} ${styles.heroSkeleton}`} aria-hidden="true" />
      <div className={`${screens.card} ${styles.board}`} aria-hidden="true" />
    </div>
  );
}

/** `/tournaments/{id}`: the tournament, joining it, its live leaderboard, rules and prizes. */
export function TournamentPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { query, missing } = useRouteTournament();
  const tournament = query.data;
  if (!tournament) {
    return <TournamentAbsent testId="tournament-page" missing={missing} failed={query.isError} loading={<TournamentSkeleton />} />;
  }
  return (
    <TournamentFrame title={tournament.title} testId="tournament-page">
      <p className={styles.back}>
        <Link to={localizePath(paths.tournaments, locale)}>{t('tournaments.all')}</Link>
      </p>
      <div className={styles.detail} data-tournament-id={tournament.id} data-status={tournament.status}>
        <section className={`${screens.card} ${styles.hero}`} aria-label={tournament.title}>
          <TournamentImage image={tournament.image} />
          <span className={screens.status} data-status={tournament.status}>
            {t(`tournaments.status.${tournament.status}`)}
          </span>
          <TournamentWindow tournament={tournament} />
          <TournamentCountdown tournament={tournament} />
          <TournamentFacts tournament={tournament} />
          {tournament.description && <p className={styles.description}>{tournament.description}</p>}
          <div className={styles.actions}>
            <JoinAction tournament={tournament} />
            <Link className={buttonClassName('secondary')} to={localizePath(tournamentGamehallPath(tournament.id), locale)} data-testid="tournament-play">
              {t('tournaments.play')}
            </Link>
          </div>
        </section>
        <TournamentLeaderboard tournament={tournament} />
        <Rules tournament={tournament} />
        <Prizes tournament={tournament} />
      </div>
    </TournamentFrame>
  );
}
