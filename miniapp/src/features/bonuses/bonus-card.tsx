import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { formatCountdown, secondsLeft, useNow } from '@/lib/countdown';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { i18n, useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast } from '@/lib/toasts/toast-store';
import { formatMessage } from '@/lib/validation';
import { useChangeBonus, type BonusAction } from './api/change-bonus';
import type { Bonus } from './api/get-bonuses';
import { openConfirm } from '@/components/dialogs/confirm-dialog';
import { bonusErrorText } from './errors';
import styles from './bonuses.module.css';

/** Whether the bonus has wagering to show: a target to reach, or wagering under way. */
export function showsWagering(bonus: Bonus): boolean {
  return bonus.status === 'wagering' || Number(bonus.wager_target) > 0;
}

/** SPEC §2 "bonus activate confirm". */
export function confirmActivate(bonus: Bonus, onConfirm: () => void): number {
  return openConfirm({
    name: 'bonusActivateConfirm',
    title: i18n.t('bonuses.activateConfirm.title'),
    text: [formatMessage(i18n.t('bonuses.activateConfirm.text'), { title: bonus.title })],
    confirmLabel: i18n.t('bonuses.activate'),
    testId: 'bonus-activate-confirm',
    onConfirm,
  });
}

/** SPEC §2 "bonus remove confirm": removing a wagering bonus says what is lost. */
export function confirmRemove(bonus: Bonus, amount: string, onConfirm: () => void): number {
  const text = [formatMessage(i18n.t('bonuses.removeConfirm.text'), { title: bonus.title })];
  if (bonus.status === 'wagering') text.push(formatMessage(i18n.t('bonuses.removeConfirm.wagering'), { amount }));
  return openConfirm({
    name: 'bonusRemoveConfirm',
    title: i18n.t('bonuses.removeConfirm.title'),
    text,
    confirmLabel: i18n.t('bonuses.removeConfirm.confirm'),
    cancelLabel: i18n.t('bonuses.removeConfirm.cancel'),
    testId: 'bonus-remove-confirm',
    onConfirm,
  });
}

const DONE_MESSAGES = {
  activate: 'bonuses.activated',
  deactivate: 'bonuses.deactivated',
  remove: 'bonuses.removed',
} as const satisfies Record<BonusAction, string>;

/** One change of the bonus, with its toast either way. */
function useBonusAction(action: BonusAction) {
  const { t } = useTranslation();
  const mutation = useChangeBonus(action, () => showToast({ type: 'success', message: t(DONE_MESSAGES[action]) }));
  return {
    pending: mutation.isPending,
    run: (bonusId: number) => {
      mutation.mutate(bonusId, { onError: (error) => showToast({ type: 'error', message: bonusErrorText(t, error, 'bonus_id') }) });
    },
  };
}

function ExpiryCountdown({ expiresAt }: { expiresAt: number }) {
  const { t } = useTranslation();
  const now = useNow(true);
  return (
    <p className={screens.muted} data-testid="bonus-expires">
      {formatMessage(t('bonuses.expiresIn'), { time: formatCountdown(t, secondsLeft(expiresAt, now)) })}
    </p>
  );
}

/** A running bonus (offered, active or wagering): what it holds, its wagering, and what can be done with it. */
export function BonusCard({ bonus }: { bonus: Bonus }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (amount: string) => formatMoney(amount, bonus.currency, locale);
  const activate = useBonusAction('activate');
  const deactivate = useBonusAction('deactivate');
  const remove = useBonusAction('remove');
  const busy = activate.pending || deactivate.pending || remove.pending;

  return (
    <li className={screens.card} data-testid="bonus-card" data-bonus-id={bonus.id} data-status={bonus.status}>
      <div className={styles.cardHead}>
        <h3 className={screens.cardTitle}>{bonus.title}</h3>
        <span className={screens.status} data-status={bonus.status}>
          {t(`bonuses.status.${bonus.status}`)}
        </span>
      </div>
      {bonus.description && <p className={styles.text}>{bonus.description}</p>}
      <dl className={screens.dl}>
        <dt>{t('bonuses.amount')}</dt>
        <dd className={screens.amount} data-testid="bonus-amount">
          {money(bonus.amount)}
        </dd>
        <dt>{t('bonuses.balance')}</dt>
        <dd className={screens.amount} data-testid="bonus-balance">
          {money(bonus.balance)}
        </dd>
        {bonus.max_bet && (
          <>
            <dt>{t('bonuses.maxBet')}</dt>
            <dd data-testid="bonus-max-bet">{money(bonus.max_bet)}</dd>
          </>
        )}
        {bonus.max_conversion && (
          <>
            <dt>{t('bonuses.maxConversion')}</dt>
            <dd>{money(bonus.max_conversion)}</dd>
          </>
        )}
        {bonus.freespins && (
          <>
            <dt>{t('bonuses.freespins')}</dt>
            <dd data-testid="bonus-freespins">
              {formatMessage(t('bonuses.freespinsLeft'), {
                remaining: bonus.freespins.remaining_count,
                total: bonus.freespins.total_count,
                game: bonus.freespins.game,
              })}
            </dd>
          </>
        )}
      </dl>
      {showsWagering(bonus) && (
        <div>
          <div
            className={styles.progress}
            role="progressbar"
            aria-label={t('bonuses.wagering')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={bonus.progress}
            data-testid="bonus-progress"
            data-progress={bonus.progress}
          >
            <span className={styles.bar} style={{ width: `${String(bonus.progress)}%` }} />
          </div>
          <p className={screens.muted} data-testid="bonus-wagered">
            {formatMessage(t('bonuses.wageringProgress'), { wagered: money(bonus.wagered), target: money(bonus.wager_target) })}
          </p>
        </div>
      )}
      {bonus.awaiting_deposit && (
        <p className={screens.notice} data-testid="bonus-awaiting-deposit">
          {bonus.min_deposit
            ? formatMessage(t('bonuses.awaitingDeposit'), { amount: money(bonus.min_deposit) })
            : t('bonuses.awaitingAnyDeposit')}{' '}
          <Link to={localizePath(paths.cashierDeposit, locale)} data-testid="bonus-deposit-link">
            {t('bonuses.makeDeposit')}
          </Link>
        </p>
      )}
      {bonus.expires_at !== null && <ExpiryCountdown expiresAt={bonus.expires_at} />}
      <div className={styles.actions}>
        {bonus.can_activate && (
          <Button data-testid="bonus-activate" disabled={busy} onClick={() => confirmActivate(bonus, () => { activate.run(bonus.id); })}>
            {t('bonuses.activate')}
          </Button>
        )}
        {bonus.can_deactivate && (
          <Button variant="secondary" data-testid="bonus-deactivate" disabled={busy} onClick={() => { deactivate.run(bonus.id); }}>
            {t('bonuses.deactivate')}
          </Button>
        )}
        {bonus.can_remove && (
          <Button
            variant="ghost"
            data-testid="bonus-remove"
            disabled={busy}
            onClick={() => confirmRemove(bonus, money(bonus.balance), () => { remove.run(bonus.id); })}
          >
            {t('bonuses.remove')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** A bonus in a history list: title, amount, status and dates. */
export function BonusHistoryItem({ bonus }: { bonus: Bonus }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const when = bonus.finished_at ?? bonus.created_at;
  return (
    <li className={screens.item} data-testid="bonus-history-item" data-bonus-id={bonus.id} data-status={bonus.status}>
      <span>{bonus.title}</span>
      <span className={screens.amount}>{formatMoney(bonus.amount, bonus.currency, locale)}</span>
      <span className={screens.muted}>
        {t(bonus.finished_at === null ? 'bonuses.received' : 'bonuses.finished')} {formatDate(when)} {formatTime(when)}
      </span>
      <span className={screens.status} data-status={bonus.status}>
        {t(`bonuses.status.${bonus.status}`)}
      </span>
    </li>
  );
}
