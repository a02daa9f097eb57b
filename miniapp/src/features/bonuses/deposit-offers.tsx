import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/format';
import { i18n, useLocale } from '@/lib/i18n';
import { formatMessage } from '@/lib/validation';
import { choosableDepositOffers, type Offer } from './api/get-offers';
import { openConfirm } from '@/components/dialogs/confirm-dialog';
import styles from './bonuses.module.css';

/** `campaign_offer_id` for a deposit without a bonus. */
export const NO_BONUS = 'none';

/**
 * SPEC §6: the deposit offers a visitor may pick for a deposit with `method` — all of them for
 * a guest, the satisfied ones for a player — leaving out those that exclude the method.
 */
export function depositOfferChoices(offers: readonly Offer[], isGuest: boolean, method: string): Offer[] {
  return choosableDepositOffers(offers, isGuest).filter((offer) => !offer.trigger.params.exclude_methods.includes(method));
}

/**
 * The `campaign_offer_id` to send: the player's choice while it is still offered, else the
 * offer of a bonus already waiting for this deposit (a promo code just applied), else the first
 * offer — as the server would choose; empty when there is nothing to choose (the server decides).
 */
export function depositOfferValue(choices: readonly Offer[], chosen: string | null): string {
  if (chosen === NO_BONUS) return NO_BONUS;
  if (chosen !== null && choices.some((offer) => String(offer.id) === chosen)) return chosen;
  const preferred = choices.find((offer) => offer.taken) ?? choices[0];
  return preferred ? String(preferred.id) : '';
}

export interface DepositOfferChoiceProps {
  offers: readonly Offer[];
  currency: string;
  value: string;
  onChange: (value: string) => void;
}

/** The deposit form's bonus: one radio per offer, and "No bonus". */
export function DepositOfferChoice({ offers, currency, value, onChange }: DepositOfferChoiceProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  if (offers.length === 0) return null;
  const option = (id: string, label: string, detail: string | null) => (
    <label key={id} className={styles.choice}>
      <input type="radio" name="campaign_offer_id" value={id} checked={value === id} data-testid={`deposit-offer-${id}`} onChange={() => { onChange(id); }} />
      <span>
        <strong>{label}</strong>
        {detail && <span className={styles.text}> · {detail}</span>}
      </span>
    </label>
  );
  return (
    <fieldset className={styles.choices} data-testid="deposit-offers">
      <legend>{t('offers.deposit.legend')}</legend>
      {offers.map((offer) => {
        const min = offer.trigger.params.min_deposit;
        const detail = [offer.description.reward, min ? formatMessage(t('offers.minDeposit'), { amount: formatMoney(min, currency, locale) }) : '']
          .filter(Boolean)
          .join(' · ');
        return option(String(offer.id), offer.description.title, detail || null);
      })}
      {option(NO_BONUS, t('offers.deposit.none'), null)}
    </fieldset>
  );
}

/**
 * SPEC §2 "burn-bonuses confirm": a withdrawal now cancels the bonuses being wagered and loses
 * their money (`amount`, formatted); confirming goes on with the withdrawal.
 */
export function confirmBurnBonuses(count: number, amount: string, onConfirm: () => void): number {
  return openConfirm({
    name: 'burnBonusesConfirm',
    title: i18n.t('bonuses.burnConfirm.title'),
    text: [formatMessage(i18n.t('bonuses.burnConfirm.text'), { count, amount })],
    confirmLabel: i18n.t('bonuses.burnConfirm.confirm'),
    cancelLabel: i18n.t('bonuses.burnConfirm.cancel'),
    testId: 'burn-bonuses-confirm',
    onConfirm,
  });
}
