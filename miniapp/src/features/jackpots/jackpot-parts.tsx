import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import screens from '@/components/screens.module.css';
import { gamePath } from '@/config/paths';
import { useNow } from '@/lib/countdown';
import { formatDate, formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { formatTimeAgo } from '@/lib/time-format';
import type { JackpotWin } from './api/get-jackpot-winners';
import type { Pool } from './api/get-jackpots';
import { JackpotAmount } from './jackpot-amount';
import { useDropCheck } from './fairness';
import styles from './jackpots.module.css';

/** The picture, or an empty frame of the same size. */
export function PoolImage({ image }: { image: string | null }) {
  return (
    <div className={styles.imageFrame}>
      {image && <img className={styles.image} src={image} alt="" width={640} height={360} loading="lazy" />}
    </div>
  );
}

/** The live amount, and the pool's status when it is not active. */
export function PoolAmount({ pool }: { pool: Pool }) {
  const { t } = useTranslation();
  return (
    <>
      <p className={styles.amountLine}>
        <span className={styles.amountLabel}>{t('jackpots.amount')}</span>
        <JackpotAmount pool={pool} />
      </p>
      {pool.status !== 'active' && (
        <span className={screens.status} data-status={pool.status}>
          {t(`jackpots.status.${pool.status}`)}
        </span>
      )}
    </>
  );
}

/** "Must drop before X", or the hidden trigger with the hash published for this cycle. */
export function PoolTrigger({ pool }: { pool: Pool }) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (pool.trigger === 'must_drop') {
    return (
      <p className={styles.trigger} data-testid="jackpot-trigger" data-trigger="must_drop">
        {pool.must_drop_before && t('jackpots.mustDrop', { amount: formatMoney(pool.must_drop_before.amount, pool.must_drop_before.currency, locale) })}
      </p>
    );
  }
  return (
    <div className={styles.trigger} data-testid="jackpot-trigger" data-trigger="hidden">
      <p className={styles.triggerTitle}>{t('jackpots.hidden')}</p>
      {pool.trigger_hash && (
        <p className={screens.muted}>
          {t('jackpots.hash')}: <code className={screens.mono} data-testid="jackpot-hash">{pool.trigger_hash}</code>
        </p>
      )}
    </div>
  );
}

/** Who won the pool last, how much and when. */
export function PoolLastWin({ pool }: { pool: Pool }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const now = useNow(pool.last_win !== null);
  return (
    <p className={screens.muted} data-testid="jackpot-last-win">
      {pool.last_win
        ? t('jackpots.lastWin', {
            name: pool.last_win.name,
            amount: formatMoney(pool.last_win.amount.amount, pool.last_win.amount.currency, locale),
            ago: formatTimeAgo(pool.last_win.at, now, locale),
          })
        : t('jackpots.notWonYet')}
    </p>
  );
}

/** The browser's own check of a revealed hidden trigger. */
function DropCheck({ win }: { win: JackpotWin }) {
  const { t } = useTranslation();
  const check = useDropCheck(win);
  if (!check.data) return null;
  return (
    <p className={styles.check} data-testid="jackpot-check" data-check={check.data}>
      {t(check.data === 'verified' ? 'jackpots.verified' : 'jackpots.mismatch')}
    </p>
  );
}

/** One drop: winner, amount, game, date; for a hidden trigger the revealed trigger and salt by the hash. */
export function JackpotWinItem({ win }: { win: JackpotWin }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={screens.item} data-testid="jackpot-winner" data-cycle={win.cycle}>
      <strong className={styles.winner}>{win.name}</strong>
      <span className={screens.amount}>{formatMoney(win.amount.amount, win.amount.currency, locale)}</span>
      <span className={screens.muted}>
        {t('jackpots.cycle', { cycle: win.cycle })} · {formatDate(win.at)}
        {win.game && (
          <>
            {' · '}
            <Link to={localizePath(gamePath(win.game.sysname), locale)}>{win.game.title}</Link>
          </>
        )}
      </span>
      {win.trigger_hash && (
        <dl className={`${screens.dl} ${styles.reveal}`}>
          <dt>{t('jackpots.hash')}</dt>
          <dd className={screens.mono}>{win.trigger_hash}</dd>
          {win.trigger !== null && (
            <>
              <dt>{t('jackpots.trigger')}</dt>
              <dd className={screens.mono} data-testid="jackpot-revealed-trigger">
                {win.trigger}
              </dd>
            </>
          )}
          {win.salt !== null && (
            <>
              <dt>{t('jackpots.salt')}</dt>
              <dd className={screens.mono}>{win.salt}</dd>
            </>
          )}
        </dl>
      )}
      <DropCheck win={win} />
    </li>
  );
}
