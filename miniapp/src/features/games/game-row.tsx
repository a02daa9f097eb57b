import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '@/lib/i18n';
import { useNearViewport } from '@/lib/near-viewport';
import { localizePath } from '@/lib/i18n/locale-path';
import { gamesQueryOptions, type GameOptions } from './api';
import { GameCard, GameCardSkeleton } from './game-card';
import styles from './games.module.css';

/**
 * A titled, horizontally scrolling row of games with a link to the whole list. Its games are
 * asked for once the row comes near the viewport (`useNearViewport`); until they answer it shows
 * skeleton cards of the games' size.
 */
export function GameRow({ title, options, moreTo, id }: { title: string; options: GameOptions; moreTo: string; id: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [ref, near] = useNearViewport();
  const { data, isPending } = useQuery({ ...gamesQueryOptions(options), enabled: near });
  if (!isPending && (data?.items.length ?? 0) === 0) return null;
  return (
    <section ref={ref} className={styles.row} aria-labelledby={`row-${id}`} data-testid={`game-row-${id}`}>
      <div className={styles.rowHead}>
        <h2 id={`row-${id}`} className={styles.rowTitle}>
          {title}
        </h2>
        <Link className={styles.rowLink} to={localizePath(moreTo, locale)}>
          {t('lobby.seeAll')}
        </Link>
      </div>
      <div className={styles.rowTrack}>
        {isPending
          ? Array.from({ length: 4 }, (_, i) => <GameCardSkeleton key={i} />)
          : data?.items.map((game) => <GameCard key={game.sysname} game={game} />)}
      </div>
    </section>
  );
}
