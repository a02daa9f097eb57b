import { useTranslation } from 'react-i18next';
import { formatCountdown, secondsLeft, useNow } from '@/lib/countdown';
import { formatZonedDateTime, localTimeZone } from '@/lib/time-format';
import type { Tournament } from './api/get-tournaments';
import styles from './tournaments.module.css';

/** The start and end in the tournament's own time zone, then on the player's clock. */
export function TournamentWindow({ tournament }: { tournament: Pick<Tournament, 'starts_at' | 'ends_at' | 'time_zone'> }) {
  const { t } = useTranslation();
  const local = localTimeZone();
  const zone = tournament.time_zone || 'UTC';
  return (
    <div className={styles.window} data-testid="tournament-window">
      <p className={styles.windowLine}>
        {t('tournaments.window', {
          start: formatZonedDateTime(tournament.starts_at, zone),
          end: formatZonedDateTime(tournament.ends_at, zone),
          zone,
        })}
      </p>
      <p className={styles.windowLocal}>
        {t('tournaments.yourTime', {
          start: formatZonedDateTime(tournament.starts_at, local),
          end: formatZonedDateTime(tournament.ends_at, local),
        })}
      </p>
    </div>
  );
}

/** Time to the start of an upcoming tournament, to the end of a running one; nothing after. */
export function TournamentCountdown({ tournament }: { tournament: Pick<Tournament, 'status' | 'starts_at' | 'ends_at'> }) {
  const { t } = useTranslation();
  const active = tournament.status === 'upcoming' || tournament.status === 'running';
  const now = useNow(active);
  if (!active) return null;
  const upcoming = tournament.status === 'upcoming';
  const time = formatCountdown(t, secondsLeft(upcoming ? tournament.starts_at : tournament.ends_at, now));
  return (
    <p className={styles.countdown} data-testid="tournament-countdown" role="timer" aria-live="off">
      {t(upcoming ? 'tournaments.startsIn' : 'tournaments.endsIn', { time })}
    </p>
  );
}
