import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { paths, routeId } from '@/config/paths';
import { GameList } from '@/features/games';
import { ApiError } from '@/lib/api/client';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { useJackpotWinners, type JackpotWin } from './api/get-jackpot-winners';
import { useJackpot, useLiveJackpots, type Pool } from './api/get-jackpots';
import { JackpotWinItem, PoolAmount, PoolImage, PoolLastWin, PoolTrigger } from './jackpot-parts';
import { commitment } from './fairness';
import styles from './jackpots.module.css';

function Winners({ pool }: { pool: Pool }) {
  const { t } = useTranslation();
  const winners = useJackpotWinners(pool.id);
  return (
    <section className={`${screens.card} ${styles.winners}`} aria-labelledby="jackpot-winners">
      <h2 id="jackpot-winners" className={screens.cardTitle}>
        {t('jackpots.winners')}
      </h2>
      {winners.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : winners.isError ? (
        <p className={screens.alert}>{t('jackpots.winnersFailed')}</p>
      ) : winners.data.items.length === 0 ? (
        <p className={screens.muted}>{t('jackpots.noWinners')}</p>
      ) : (
        <ul className={screens.list}>
          {winners.data.items.map((win) => (
            <JackpotWinItem key={win.id} win={win} />
          ))}
        </ul>
      )}
      {pool.trigger === 'hidden' && <HowToVerify example={winners.data?.items.find((win) => win.trigger !== null && win.salt !== null)} />}
    </section>
  );
}

/** How anyone checks a drop: sha256("{trigger}:{salt}") against the hash published before it. */
function HowToVerify({ example }: { example: JackpotWin | undefined }) {
  const { t } = useTranslation();
  const trigger = example?.trigger ?? null;
  const salt = example?.salt ?? null;
  const text = trigger !== null && salt !== null ? commitment(trigger, salt) : commitment(125_000, 'salt');
  return (
    <div className={styles.verify} data-testid="jackpot-verify">
      <h3 className={styles.verifyTitle}>{t('jackpots.verifyTitle')}</h3>
      <p className={screens.muted}>{t('jackpots.verifyText', { example: text })}</p>
    </div>
  );
}

/** `/jackpots/{id}`: one pool, its amount live, its games, its contribution and its winners. */
export function JackpotPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const route = useRouteHandle()?.name;
  const { id } = useParams();
  const poolId = routeId(id);
  const query = useJackpot(poolId);
  useLiveJackpots();
  const { pool } = query;
  const missing =
    Number.isNaN(poolId) ||
    (query.isSuccess && !pool) ||
    (query.error instanceof ApiError && (query.error.status === 404 || query.error.fieldErrors.id !== undefined));
  const back = <Link to={localizePath(paths.jackpots, locale)}>{t('jackpots.all')}</Link>;
  return (
    <div className={screens.page} data-testid="jackpot-page" data-route={route}>
      <h1 className={screens.title}>{pool?.title ?? t('pages.jackpots')}</h1>
      {!pool ? (
        missing ? (
          <p className={screens.notice} data-testid="jackpot-not-found">
            {t('jackpots.notFound')} {back}
          </p>
        ) : query.isError ? (
          <p className={screens.alert}>{t('jackpots.loadFailed')}</p>
        ) : (
          <div className={`${screens.card} ${styles.heroSkeleton}`} aria-hidden="true" />
        )
      ) : (
        <>
          <p className={styles.back}>{back}</p>
          <div className={styles.detail} data-pool-id={pool.id} data-status={pool.status}>
            <section className={`${screens.card} ${styles.hero}`} aria-label={pool.title}>
              <PoolImage image={pool.image} />
              <PoolAmount pool={pool} />
              {pool.description && <p className={styles.description}>{pool.description}</p>}
              <PoolTrigger pool={pool} />
              <p data-testid="jackpot-contribution">{t('jackpots.contribution', { percent: pool.contribution_percent })}</p>
              <p className={screens.muted}>{t('jackpots.seed', { amount: formatMoney(pool.seed.amount, pool.seed.currency, locale) })}</p>
              <PoolLastWin pool={pool} />
            </section>
            <Winners pool={pool} />
            <section className={`${screens.card} ${styles.games}`} aria-labelledby="jackpot-games">
              <h2 id="jackpot-games" className={screens.cardTitle}>
                {t('jackpots.games')}
              </h2>
              {pool.game_sysnames.length === 0 ? (
                <p className={screens.muted}>{t('jackpots.everyGame')}</p>
              ) : (
                <GameList options={{ sysnames: pool.game_sysnames }} empty={t('lobby.nothingFound')} />
              )}
            </section>
          </div>
        </>
      )}
    </div>
  );
}
