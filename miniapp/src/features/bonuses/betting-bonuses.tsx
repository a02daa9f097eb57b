import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { openConfirm } from '@/components/dialogs/confirm-dialog';
import type { Locale } from '@/config/locales';
import { paths } from '@/config/paths';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { i18n, useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast } from '@/lib/toasts/toast-store';
import { formatMessage } from '@/lib/validation';
import {
  CURRENT_BETTING_STATUSES,
  FINISHED_BETTING_STATUSES,
  useActivateBettingBonus,
  useBettingBonuses,
  useRemoveBettingBonus,
  type BettingBonus,
} from './api/betting-bonuses';
import { bonusErrorText } from './errors';
import styles from './bonuses.module.css';

/** What a betting bonus gives, in words: "Free bet of $10.00" or "+50% odds boost (up to $1.00)". */
export function bettingBonusReward(bonus: BettingBonus, locale: Locale): string {
  const money = (amount: string) => formatMoney(amount, bonus.currency, locale);
  if (bonus.kind === 'freebet') return formatMessage(i18n.t('bonuses.betting.freebetOf'), { amount: money(bonus.amount ?? '0') });
  const percent = String(bonus.boost_percent ?? 0);
  return bonus.max_extra
    ? formatMessage(i18n.t('bonuses.betting.boostUpTo'), { percent, amount: money(bonus.max_extra) })
    : formatMessage(i18n.t('bonuses.betting.boostOf'), { percent });
}

/** SPEC §2 "bonus activate confirm", for a betting bonus: another active one is put aside. */
export function confirmActivateBetting(bonus: BettingBonus, onConfirm: () => void): number {
  return openConfirm({
    name: 'bettingBonusActivateConfirm',
    title: i18n.t('bonuses.betting.activateConfirm.title'),
    text: [formatMessage(i18n.t('bonuses.betting.activateConfirm.text'), { title: bonus.title })],
    confirmLabel: i18n.t('bonuses.activate'),
    testId: 'betting-bonus-activate-confirm',
    onConfirm,
  });
}

/** SPEC §2 "bonus remove confirm", for a betting bonus: an active free bet's stake is lost. */
export function confirmRemoveBetting(bonus: BettingBonus, onConfirm: () => void): number {
  return openConfirm({
    name: 'bettingBonusRemoveConfirm',
    title: i18n.t('bonuses.removeConfirm.title'),
    text: [formatMessage(i18n.t('bonuses.removeConfirm.text'), { title: bonus.title })],
    confirmLabel: i18n.t('bonuses.removeConfirm.confirm'),
    cancelLabel: i18n.t('bonuses.removeConfirm.cancel'),
    testId: 'betting-bonus-remove-confirm',
    onConfirm,
  });
}

/** SPEC §2 "betting-bonus-activated confirm": the bonus is ready, go and bet with it. */
export function openBettingBonusActivated(bonus: BettingBonus, reward: string, goBet: () => void): number {
  return openConfirm({
    name: 'betting-bonus-activated',
    title: i18n.t('bonuses.betting.activated.title'),
    text: [formatMessage(i18n.t('bonuses.betting.activated.text'), { title: bonus.title, reward })],
    confirmLabel: i18n.t('bonuses.betting.activated.bet'),
    cancelLabel: i18n.t('bonuses.betting.activated.later'),
    testId: 'betting-bonus-activated',
    onConfirm: goBet,
  });
}

function BettingBonusCard({ bonus }: { bonus: BettingBonus }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const reward = bettingBonusReward(bonus, locale);
  const fail = (error: unknown) => { showToast({ type: 'error', message: bonusErrorText(t, error, 'bonus_id') }); };
  const activate = useActivateBettingBonus((activated) => {
    openBettingBonusActivated(activated.bonus, bettingBonusReward(activated.bonus, locale), () => {
      void navigate(localizePath(paths.betting, locale));
    });
  });
  const remove = useRemoveBettingBonus(() => { showToast({ type: 'success', message: t('bonuses.removed') }); });
  const busy = activate.isPending || remove.isPending;
  return (
    <li className={screens.card} data-testid="betting-bonus-card" data-bonus-id={bonus.id} data-status={bonus.status}>
      <div className={styles.cardHead}>
        <h3 className={screens.cardTitle}>{bonus.title}</h3>
        <span className={screens.status} data-status={bonus.status}>
          {t(`bonuses.betting.status.${bonus.status}`)}
        </span>
      </div>
      <p className={screens.amount} data-testid="betting-bonus-reward">
        {reward}
      </p>
      {bonus.description && <p className={styles.text}>{bonus.description}</p>}
      <p className={screens.muted}>{t(bonus.kind === 'freebet' ? 'bonuses.betting.freebetRule' : 'bonuses.betting.boostRule')}</p>
      {bonus.awaiting_deposit && <p className={screens.notice}>{t('bonuses.awaitingAnyDeposit')}</p>}
      {bonus.expires_at !== null && (
        <p className={screens.muted}>
          {formatMessage(t('bonuses.betting.until'), { date: `${formatDate(bonus.expires_at)} ${formatTime(bonus.expires_at)}` })}
        </p>
      )}
      <div className={styles.actions}>
        {bonus.can_activate && (
          <Button
            data-testid="betting-bonus-activate"
            disabled={busy}
            onClick={() => confirmActivateBetting(bonus, () => { activate.mutate(bonus.id, { onError: fail }); })}
          >
            {t('bonuses.activate')}
          </Button>
        )}
        {bonus.can_remove && (
          <Button
            variant="ghost"
            data-testid="betting-bonus-remove"
            disabled={busy}
            onClick={() => confirmRemoveBetting(bonus, () => { remove.mutate(bonus.id, { onError: fail }); })}
          >
            {t('bonuses.remove')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** The profile bonuses tab's sports section: the running betting bonuses and the finished ones. */
export function BettingBonuses() {
  const { t } = useTranslation();
  const locale = useLocale();
  const current = useBettingBonuses(CURRENT_BETTING_STATUSES);
  const finished = useBettingBonuses(FINISHED_BETTING_STATUSES);
  if (current.isPending || finished.isPending) return <Spinner label={t('app.loading')} />;
  if (current.isError || finished.isError) return <p className={screens.alert}>{t('bonuses.loadFailed')}</p>;
  return (
    <>
      {current.data.items.length === 0 ? (
        <p className={screens.muted} data-testid="betting-bonus-none">
          {t('bonuses.betting.none')}
        </p>
      ) : (
        <ul className={screens.list} data-testid="betting-bonus-list">
          {current.data.items.map((bonus) => (
            <BettingBonusCard key={bonus.id} bonus={bonus} />
          ))}
        </ul>
      )}
      {finished.data.items.length > 0 && (
        <ul className={screens.list} data-testid="betting-bonus-history">
          {finished.data.items.map((bonus) => (
            <li key={bonus.id} className={screens.item} data-testid="betting-bonus-history-item" data-status={bonus.status}>
              <span>{bonus.title}</span>
              <span className={screens.amount}>{bettingBonusReward(bonus, locale)}</span>
              <span className={screens.status} data-status={bonus.status}>
                {t(`bonuses.betting.status.${bonus.status}`)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
