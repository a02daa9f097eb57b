import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '@/components/ui/button';
import screens from '@/components/screens.module.css';
import { jackpotPath } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { useJackpots, useLiveJackpots, type Pool } from './api/get-jackpots';
import { PoolAmount, PoolImage, PoolLastWin, PoolTrigger } from './jackpot-parts';
import styles from './jackpots.module.css';

function PoolCard({ pool }: { pool: Pool }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const to = localizePath(jackpotPath(pool.id), locale);
  return (
    <li className={`${screens.card} ${styles.card}`} data-testid="jackpot-card" data-pool-id={pool.id} data-status={pool.status}>
      <PoolImage image={pool.image} />
      <h2 className={screens.cardTitle}>
        <Link to={to}>{pool.title}</Link>
      </h2>
      <PoolAmount pool={pool} />
      <PoolTrigger pool={pool} />
      <PoolLastWin pool={pool} />
      <Link to={to} className={buttonClassName('secondary')} aria-label={`${t('jackpots.more')}: ${pool.title}`}>
        {t('jackpots.more')}
      </Link>
    </li>
  );
}

const SKELETON_CARDS = 3;

/** `/jackpots`: every pool, its amount following the server's stream. */
export function JackpotsPage() {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  const pools = useJackpots();
  useLiveJackpots();
  return (
    <div className={screens.page} data-testid="jackpots-page" data-route={route}>
      <h1 className={screens.title}>{t('pages.jackpots')}</h1>
      {pools.isError ? (
        <p className={screens.alert}>{t('jackpots.loadFailed')}</p>
      ) : pools.data?.length === 0 ? (
        <p className={screens.notice} data-testid="jackpots-empty">
          {t('jackpots.empty')}
        </p>
      ) : (
        <ul className={styles.grid} aria-busy={pools.isPending}>
          {pools.data
            ? pools.data.map((pool) => <PoolCard key={pool.id} pool={pool} />)
            : Array.from({ length: SKELETON_CARDS }, (_, index) => (
                <li key={index} className={`${screens.card} ${styles.card} ${styles.skeleton}`} aria-hidden="true" />
              ))}
        </ul>
      )}
    </div>
  );
}
