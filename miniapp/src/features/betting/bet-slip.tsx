import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { isAuthenticated, useAccountInfo } from '@/features/account';
import { openSignIn } from '@/features/auth';
import { bettingBonusReward, useActiveBettingBonus } from '@/features/bonuses';
import { ApiError } from '@/lib/api/client';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { currencyDecimals } from '@/lib/minor-units';
import { showToast } from '@/lib/toasts/toast-store';
import { amountToMinor, minorToAmount } from '@/lib/minor-units';
import { ACCEPT_ODDS, formatOdds, slipTotals, systemsFor, type AcceptOdds, type SlipKind } from './odds';
import { systemLabel } from './labels';
import { bonusFits, usePlaceSlip, type Refusal, type SlipBonus } from './place';
import {
  acknowledgeChanges,
  clearSlip,
  removeSelection,
  setAcceptOdds,
  setSlipKind,
  setSlipOpen,
  setStake,
  useSlip,
} from './slip-store';
import styles from './betting.module.css';

const KINDS: readonly SlipKind[] = ['single', 'accumulator', 'system'];

/**
 * The bet slip: the picked selections, the bet type, the stake per line, what it costs and may
 * return, the "accept odds changes" choice and the button that places it. A column beside the
 * events on wide screens; on phones a bar at the bottom that opens it as a drawer.
 */
export function BetSlip() {
  const { t } = useTranslation();
  const locale = useLocale();
  const slip = useSlip();
  const account = useAccountInfo().data;
  const place = usePlaceSlip();
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [bonusChosen, setBonusChosen] = useState(true);
  const guest = !isAuthenticated(account);
  const bonus = useActiveBettingBonus(!guest);
  const count = slip.entries.length;
  // The active betting bonus is offered for one single or accumulator, chosen by default.
  const bonusOffered = bonus !== null && bonusFits(slip);
  const slipBonus: SlipBonus | null = bonusOffered && bonusChosen ? { id: bonus.id, kind: bonus.kind, amount: bonus.amount } : null;
  const freebet = slipBonus?.kind === 'freebet';
  const currency = account?.balance_main.currency ?? 'USD';
  const decimals = currencyDecimals(currency);
  const stakeMinor = amountToMinor(freebet ? (slipBonus.amount ?? '') : slip.stake, decimals);
  const systems = systemsFor(count);
  const system = slip.kind === 'system' ? (slip.system ?? systems[0] ?? null) : null;
  const totals =
    stakeMinor === null ? null : slipTotals(slip.kind, slip.entries.map((entry) => entry.odds), stakeMinor, system ?? undefined);
  const suspended = slip.entries.some((entry) => entry.suspended);
  // Prices that moved while the slip was open (live odds, or a refusal's prices): placing now
  // accepts them, and the button says so.
  const changed = refusal === 'odds_changed' || slip.entries.some((entry) => entry.previous !== null);
  const canPlace = !guest && count > 0 && !suspended && stakeMinor !== null && stakeMinor > 0n && totals !== null && !place.isPending;
  const money = (minor: bigint) => formatMoney(minorToAmount(minor, decimals), currency, locale);

  const submit = () => {
    if (guest) {
      openSignIn('authorization');
      return;
    }
    if (slip.kind === 'system' && slip.system === null && system) setSlipKind('system', system);
    acknowledgeChanges();
    setRefusal(null);
    place.mutate(slipBonus, {
      onSuccess: (outcome) => {
        setRefusal(outcome.refusal);
        if (outcome.placed.length > 0) {
          showToast({ type: 'success', message: t('betting.slip.placed', { count: outcome.placed.length }) });
        }
      },
      onError: (error) => {
        showToast({ type: 'error', message: error instanceof ApiError && error.message ? error.message : t('betting.slip.failed') });
      },
    });
  };

  return (
    <>
      <button
        type="button"
        className={styles.slipBar}
        data-testid="slip-bar"
        aria-expanded={slip.open}
        aria-controls="bet-slip"
        onClick={() => { setSlipOpen(!slip.open); }}
      >
        {t('betting.slip.open', { count })}
        {totals ? <span>{money(totals.potential)}</span> : null}
      </button>
      <aside id="bet-slip" className={styles.slip} data-open={slip.open} data-testid="bet-slip" aria-label={t('betting.slip.title')}>
        <div className={styles.slipHead}>
          <h2 className={styles.slipTitle}>{t('betting.slip.title')}</h2>
          <button type="button" className={styles.slipClose} aria-label={t('betting.slip.close')} onClick={() => { setSlipOpen(false); }}>
            ×
          </button>
        </div>
        {count === 0 ? (
          <p className={styles.muted} data-testid="slip-empty">
            {t('betting.slip.empty')}
          </p>
        ) : (
          <>
            <ul className={styles.slipEntries}>
              {slip.entries.map((entry) => (
                <li key={entry.selectionId} className={styles.slipEntry} data-testid="slip-entry" data-suspended={entry.suspended}>
                  <div className={styles.slipEntryText}>
                    <strong>{entry.selection}</strong>
                    <span className={styles.muted}>{entry.market}</span>
                    <span className={styles.muted}>{entry.event}</span>
                  </div>
                  <div className={styles.slipEntryOdds}>
                    {entry.suspended ? (
                      <span className={styles.badge}>{t('betting.suspended')}</span>
                    ) : (
                      <strong data-testid="slip-odds" data-changed={entry.previous === null ? undefined : ''}>
                        {formatOdds(entry.odds, slip.format)}
                      </strong>
                    )}
                    {entry.previous !== null ? (
                      <span className={styles.was} data-testid="slip-was">
                        {t('betting.slip.was', { odds: formatOdds(entry.previous, slip.format) })}
                      </span>
                    ) : null}
                    <button
                      type="button"
                      className={styles.slipRemove}
                      aria-label={t('betting.slip.remove', { selection: entry.selection })}
                      onClick={() => { removeSelection(entry.selectionId); }}
                    >
                      ×
                    </button>
                  </div>
                </li>
              ))}
            </ul>
            <div className={styles.kinds} role="group" aria-label={t('betting.slip.kindLabel')}>
              {KINDS.map((kind) => {
                const fits = kind === 'single' || (kind === 'accumulator' ? count >= 2 : systems.length > 0);
                return (
                  <button
                    key={kind}
                    type="button"
                    className={styles.kind}
                    aria-pressed={slip.kind === kind}
                    disabled={!fits}
                    onClick={() => { setSlipKind(kind, kind === 'system' ? (systems[0] ?? null) : null); }}
                  >
                    {t(`betting.slip.kinds.${kind}`)}
                  </button>
                );
              })}
            </div>
            {slip.kind === 'system' && system ? (
              <SelectField
                label={t('betting.slip.system')}
                name="system"
                value={system}
                options={systems.map((value) => ({ value, label: systemLabel(value, count, t) }))}
                onValueChange={(value) => { setSlipKind('system', value); }}
              />
            ) : null}
            <label className={styles.stake}>
              <span>{t('betting.slip.stake', { currency })}</span>
              <input
                className={styles.stakeInput}
                name="stake"
                inputMode="decimal"
                autoComplete="off"
                value={freebet ? (slipBonus.amount ?? '') : slip.stake}
                readOnly={freebet}
                data-testid="slip-stake"
                onChange={(event) => { setStake(event.target.value); }}
              />
            </label>
            {bonusOffered ? (
              <label className={styles.bonusChoice} data-testid="slip-bonus">
                <input
                  type="checkbox"
                  checked={bonusChosen}
                  data-testid="slip-bonus-use"
                  onChange={(event) => { setBonusChosen(event.target.checked); }}
                />
                <span>{t('betting.slip.bonus.use', { reward: bettingBonusReward(bonus, locale) })}</span>
              </label>
            ) : null}
            {freebet ? (
              <p className={styles.muted} data-testid="slip-freebet-note">
                {t('betting.slip.bonus.freebetStake')}
              </p>
            ) : null}
            {bonus !== null && !bonusOffered && count > 1 && slip.kind !== 'accumulator' ? (
              <p className={styles.muted}>{t('betting.slip.bonus.oneBet')}</p>
            ) : null}
            <dl className={styles.totals} data-testid="slip-totals">
              <dt>{slip.kind === 'single' ? t('betting.slip.bets', { count: totals?.lines ?? count }) : t('betting.slip.lines', { count: totals?.lines ?? 0 })}</dt>
              <dd />
              <dt>{t('betting.slip.totalStake')}</dt>
              <dd data-testid="slip-total-stake">{totals ? money(totals.stake) : '—'}</dd>
              <dt>{t('betting.slip.potential')}</dt>
              <dd data-testid="slip-potential">{totals ? money(totals.potential) : '—'}</dd>
            </dl>
            <SelectField
              label={t('betting.slip.acceptOdds')}
              name="accept_odds"
              value={slip.accept}
              options={ACCEPT_ODDS.map((value) => ({ value, label: t(`betting.slip.accept.${value}`) }))}
              onValueChange={(value) => { setAcceptOdds(value as AcceptOdds); }}
            />
            {changed && !suspended ? (
              <p className={styles.notice} role="alert" data-testid="slip-odds-changed">
                {t('betting.slip.oddsChanged')}
              </p>
            ) : null}
            {suspended ? (
              <p className={styles.notice} role="alert" data-testid="slip-suspended">
                {t('betting.slip.suspendedNotice')}
              </p>
            ) : null}
            <Button fullWidth data-testid="slip-place" disabled={!guest && !canPlace} onClick={submit}>
              {guest
                ? t('betting.slip.signIn')
                : place.isPending
                  ? t('betting.slip.placing')
                  : changed
                    ? t('betting.slip.acceptAndPlace')
                    : t('betting.slip.place')}
            </Button>
            <button type="button" className={styles.clear} onClick={clearSlip}>
              {t('betting.slip.clear')}
            </button>
          </>
        )}
      </aside>
    </>
  );
}
