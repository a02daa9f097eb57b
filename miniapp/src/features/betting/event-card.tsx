import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { bettingEventPath } from '@/config/paths';
import { formatDate, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import type { SportEvent } from './api/get-catalog';
import { OddsButton } from './odds-button';
import styles from './betting.module.css';

/** Kick-off in the player's time zone, or the clock and score once in play. */
export function EventState({ event }: { event: SportEvent }) {
  const { t } = useTranslation();
  if (event.status === 'live' || event.status === 'finished') {
    return (
      <span className={styles.state} data-status={event.status} data-testid="event-state">
        <span className={styles.badge}>{event.status === 'live' ? t('betting.live') : t('betting.status.finished')}</span>
        {event.status === 'live' && event.clock !== null ? <span>{t('betting.minute', { minute: event.clock })}</span> : null}
        <strong data-testid="event-score">
          {String(event.home_score ?? 0)} – {String(event.away_score ?? 0)}
        </strong>
      </span>
    );
  }
  return (
    <span className={styles.state} data-status={event.status} data-testid="event-state">
      {event.status === 'cancelled' ? <span className={styles.badge}>{t('betting.status.cancelled')}</span> : null}
      <time dateTime={new Date(event.starts_at * 1000).toISOString()}>
        {formatDate(event.starts_at)} {formatTime(event.starts_at)}
      </time>
    </span>
  );
}

/** One event in a list: who plays, when (or the score), the main market's prices and a link to every market. */
export function EventCard({ event }: { event: SportEvent }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const main = event.markets[0];
  return (
    <li className={styles.event} data-testid="event-card" data-event={event.id}>
      <div className={styles.eventHead}>
        <Link className={styles.eventName} to={localizePath(bettingEventPath(event.id), locale)}>
          {event.home} v {event.away}
        </Link>
        <EventState event={event} />
      </div>
      <p className={styles.eventLeague}>{event.league}</p>
      {main ? (
        <div className={styles.oddsRow} role="group" aria-label={main.name}>
          {main.selections.map((selection) => (
            <OddsButton key={selection.id} event={event} market={main} selection={selection} />
          ))}
        </div>
      ) : null}
      <Link className={styles.more} to={localizePath(bettingEventPath(event.id), locale)} data-testid="event-markets-link">
        {t('betting.allMarkets')}
      </Link>
    </li>
  );
}
