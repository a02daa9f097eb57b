import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/client';
import { i18n } from '@/lib/i18n';
import { bonus, offer } from '@/test/bonus-fixtures';
import { choosableDepositOffers, findOffer } from './api/get-offers';
import { showsWagering } from './bonus-card';
import { depositOfferChoices, depositOfferValue, NO_BONUS } from './deposit-offers';
import { bonusErrorText, burnConfirmationOf, isPromoCodeNotFound, promoCodeErrorText } from './errors';
import { offerButton } from './offers-page';

const t = i18n.t.bind(i18n);
const fieldError = (field: string, codes: string[], data: Record<string, unknown> = {}) =>
  new ApiError('InvalidParameterException', 'bad', 400, { [field]: codes }, { data: { [field]: codes, ...data } });

describe('promo code errors (SPEC §5)', () => {
  it('maps the first code of error_data.promo_code to its message', () => {
    expect(promoCodeErrorText(t, fieldError('promo_code', ['PROMO_USED', 'NOT_FOUND']))).toBe('You have already used this code');
    expect(promoCodeErrorText(t, fieldError('promo_code', ['PROMO_EXPIRED']))).toBe('This code is no longer valid');
    expect(promoCodeErrorText(t, fieldError('promo_code', ['PROMO_NOT_ELIGIBLE']))).toBe('This code is not available for your account');
    expect(promoCodeErrorText(t, fieldError('promo_code', ['NOT_FOUND']))).toBe('Not found');
    expect(promoCodeErrorText(t, fieldError('promo_code', ['MAX_LENGTH'], { max: 64 }))).toBe('Max length is 64');
  });

  it('falls back to INVALID for unknown codes and other failures', () => {
    expect(promoCodeErrorText(t, fieldError('promo_code', ['SOMETHING_NEW']))).toBe('Wrong field value');
    expect(promoCodeErrorText(t, fieldError('other', ['REQUIRED']))).toBe('Wrong field value');
    expect(promoCodeErrorText(t, new ApiError('InternalServerErrorException', 'x', 500))).toBe('Wrong field value');
    expect(promoCodeErrorText(t, new Error('bug'))).toBe('Wrong field value');
  });

  it('says when to try again after too many tries, and when there is no network', () => {
    const tooMany = new ApiError('TooManyRequestsException', '', 429, {}, { data: { retry_after: 90 } });
    expect(promoCodeErrorText(t, tooMany)).toBe('Too many attempts. Try again in 90 s.');
    expect(promoCodeErrorText(t, new ApiError('UnknownErrorException', '', 0))).toMatch(/No connection/);
  });

  it('tells a code that does not exist (it fires an event)', () => {
    expect(isPromoCodeNotFound(fieldError('promo_code', ['NOT_FOUND']))).toBe(true);
    expect(isPromoCodeNotFound(fieldError('promo_code', ['PROMO_USED']))).toBe(false);
  });
});

describe('bonus errors', () => {
  it('names the active-bonus limit, the field code, or the server words', () => {
    const limit = new ApiError('BonusActiveLimitException', 'limit', 409, {}, { data: { max: 2 } });
    expect(bonusErrorText(t, limit, 'bonus_id')).toBe('You can wager at most 2 bonuses at once. Finish or remove one first.');
    expect(bonusErrorText(t, fieldError('offer_id', ['PROMO_USED']), 'offer_id')).toBe('You have already used this code');
    expect(bonusErrorText(t, fieldError('bonus_id', ['NOT_FOUND']), 'bonus_id')).toBe('Not found');
    expect(bonusErrorText(t, new ApiError('InternalServerErrorException', 'Server down', 500), 'bonus_id')).toBe('Server down');
  });

  it('reads the burn-bonuses question of a withdrawal', () => {
    const burn = new ApiError('BonusBurnConfirmationRequiredException', '', 409, {}, { data: { bonuses: 2, amount: '12.50' } });
    expect(burnConfirmationOf(burn)).toEqual({ bonuses: 2, amount: '12.50' });
    expect(burnConfirmationOf(new ApiError('WithdrawalDeclinedException', '', 409))).toBeNull();
  });
});

describe('bonus card', () => {
  it('shows wagering once there is a target or wagering is under way', () => {
    expect(showsWagering(bonus())).toBe(true);
    expect(showsWagering(bonus({ status: 'active', wager_target: '0.00' }))).toBe(false);
    expect(showsWagering(bonus({ status: 'wagering', wager_target: '0.00' }))).toBe(true);
    expect(showsWagering(bonus({ status: 'offered', wager_target: '300.00' }))).toBe(true);
  });
});

describe('offers', () => {
  const welcome = offer();
  const weekend = offer({ id: 2, sysname: 'weekend', promotions: ['weekend-reload'], trigger: { ...welcome.trigger, action: 'promo_code' } });

  it('finds an offer by id, sysname or promotion slug', () => {
    expect(findOffer([welcome, weekend], '2')).toBe(weekend);
    expect(findOffer([welcome, weekend], 'Welcome')).toBe(welcome);
    expect(findOffer([welcome, weekend], 'weekend-reload')).toBe(weekend);
    expect(findOffer([welcome, weekend], 'summer')).toBeUndefined();
  });

  it('shows deposit offers to guests, and to players only when they satisfy them (SPEC §6)', () => {
    const unsatisfied = offer({ id: 3, trigger: { ...welcome.trigger, user_satisfies_params: false } });
    expect(choosableDepositOffers([welcome, unsatisfied], true)).toEqual([welcome, unsatisfied]);
    expect(choosableDepositOffers([welcome, unsatisfied], false)).toEqual([welcome]);
  });

  it('leaves out the offers that exclude the payment method', () => {
    const noCrypto = offer({ id: 4, trigger: { ...welcome.trigger, params: { ...welcome.trigger.params, exclude_methods: ['crypto'] } } });
    expect(depositOfferChoices([welcome, noCrypto], false, 'crypto')).toEqual([welcome]);
    expect(depositOfferChoices([welcome, noCrypto], false, 'card')).toEqual([welcome, noCrypto]);
  });

  it('sends the chosen offer, the waiting or else the first one by default, none, or nothing to choose from', () => {
    expect(depositOfferValue([welcome, weekend], null)).toBe('1');
    expect(depositOfferValue([welcome, weekend], '2')).toBe('2');
    expect(depositOfferValue([welcome, weekend], NO_BONUS)).toBe('none');
    expect(depositOfferValue([welcome], '2')).toBe('1');
    expect(depositOfferValue([], null)).toBe('');
    // A bonus already waiting for the deposit (a promo code applied) comes first.
    expect(depositOfferValue([welcome, { ...weekend, taken: true, bonus_id: 9 }], null)).toBe('2');
  });

  it('gives guests a way to register and players the button their offer allows', () => {
    expect(offerButton(welcome, undefined)).toBe('loading');
    expect(offerButton(welcome, false)).toBe('register');
    expect(offerButton(welcome, true)).toBe('take');
    expect(offerButton(offer({ taken: true, bonus_id: 5 }), true)).toBe('taken');
    expect(offerButton(weekend, true)).toBe('promoCode');
    expect(offerButton(offer({ trigger: { ...welcome.trigger, user_satisfies_params: false } }), true)).toBe('notEligible');
  });
});
