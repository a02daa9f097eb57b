import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { gamePath } from '@/config/paths';
import { useAccount } from '@/features/account';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast } from '@/lib/toasts/toast-store';
import { gameKeys, gameView, setLike, type Game } from './api';
import { useFreespins } from './freespins';
import styles from './games.module.css';

export function HeartIcon({ filled }: { filled: boolean }) {
  return (
    <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.8">
      <path d="M12 20s-7-4.4-9-9a5 5 0 0 1 9-3 5 5 0 0 1 9 3c-2 4.6-9 9-9 9z" />
    </svg>
  );
}

/** Favourite toggle (SPEC §3 `canVisibleFavoriteIcon`); likes load only for players (SPEC §6). */
export function FavouriteButton({ game, className }: { game: Game; className?: string }) {
  const { t } = useTranslation();
  const account = useAccount();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (liked: boolean) => setLike(game.sysname, liked),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: gameKeys.all }),
    onError: () => showToast({ type: 'error', message: t('lobby.favouriteFailed') }),
  });
  if (!account || game.config?.canVisibleFavoriteIcon === false) return null;
  const liked = toggle.isPending ? toggle.variables : game.is_favourite;
  return (
    <button
      type="button"
      className={className ?? styles.heart}
      aria-pressed={liked}
      aria-label={t(liked ? 'lobby.removeFavourite' : 'lobby.addFavourite', { name: gameView(game).name })}
      disabled={toggle.isPending}
      onClick={() => {
        toggle.mutate(!game.is_favourite);
      }}
    >
      <HeartIcon filled={liked} />
    </button>
  );
}

export function GameCard({ game, onOpen }: { game: Game; onOpen?: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { name, image } = gameView(game);
  const spins = useFreespins().get(game.sysname);
  return (
    <article className={styles.card} data-testid="game-card" data-sysname={game.sysname}>
      <Link to={localizePath(gamePath(game.sysname), locale)} className={styles.cardLink} onClick={onOpen} aria-label={name}>
        <img className={styles.cardImage} src={image} alt="" loading="lazy" width={288} height={192} />
      </Link>
      <FavouriteButton game={game} />
      {spins && (
        <span className={styles.spinsBadge} data-testid="freespins-badge">
          {t('lobby.freespinsBadge', { count: spins.remaining })}
        </span>
      )}
      <p className={styles.cardName}>{name}</p>
      <p className={styles.cardMeta}>RTP {game.rtp}%</p>
    </article>
  );
}

/**
 * A game card's place while its games load: the picture's box and the name and RTP lines, each
 * the height of the card's own, so the row does not grow when the games arrive (a page that moves
 * under the player's finger makes them tap the wrong thing).
 */
export function GameCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true" data-testid="game-card-skeleton">
      <div className={styles.skeleton} />
      <p className={`${styles.cardName} ${styles.skeletonLine}`}>&nbsp;</p>
      <p className={`${styles.cardMeta} ${styles.skeletonLine}`}>&nbsp;</p>
    </div>
  );
}
