import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import screens from '@/components/screens.module.css';
import { tournamentPath } from '@/config/paths';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import type { Tournament } from './api/get-tournaments';
import { TournamentCountdown, TournamentWindow } from './tournament-window';
import styles from './tournaments.module.css';

/** The picture, or an empty frame of the same size: the card keeps its height either way. */
export function TournamentImage({ image }: { image: string | null }) {
  return (
    <div className={styles.imageFrame}>
      {image && <img className={styles.image} src={image} alt="" width={640} height={360} loading="lazy" />}
    </div>
  );
}

/** Prize pool and participants, side by side. */
export function TournamentFacts({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <dl className={styles.facts}>
      {tournament.prize_pool && (
        <div>
          <dt>{t('tournaments.prizePool')}</dt>
          <dd className={screens.amount} data-testid="tournament-prize-pool">
            {formatMoney(tournament.prize_pool.amount, tournament.prize_pool.currency, locale)}
          </dd>
        </div>
      )}
      <div>
        <dt>{t('tournaments.participants')}</dt>
        <dd className={screens.amount} data-testid="tournament-participants">
          {new Intl.NumberFormat(locale).format(tournament.participants)}
        </dd>
      </div>
    </dl>
  );
}

/** A tournament in the list: its picture, title, window, countdown, pool, players and scoring rule. */
export function TournamentCard({ tournament }: { tournament: Tournament }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={`${screens.card} ${styles.card}`} data-testid="tournament-card" data-tournament-id={tournament.id} data-status={tournament.status}>
      <TournamentImage image={tournament.image} />
      <h2 className={screens.cardTitle}>
        <Link to={localizePath(tournamentPath(tournament.id), locale)}>{tournament.title}</Link>
      </h2>
      <TournamentWindow tournament={tournament} />
      <TournamentCountdown tournament={tournament} />
      <TournamentFacts tournament={tournament} />
      <p className={styles.scoring}>{t(`tournaments.scoring.${tournament.scoring}`)}</p>
    </li>
  );
}

/** A card's stand-in while the list loads, as tall as a card. */
export function TournamentCardSkeleton() {
  return <li className={`${screens.card} ${styles.card} ${styles.skeleton}`} aria-hidden="true" />;
}
