// The public face of the `bonuses` feature (SPEC §7 `bonuses.*`, `campaigns.*`): what other
// features may import (see src/test/feature-boundaries.test.ts). Everything else in this folder
// is its own business.

export { bonusesQueryOptions, bonusKeys, getBonuses, useBonuses, type Bonus, type BonusesPage, type BonusStatus } from './api/get-bonuses';
export { changeBonus, useChangeBonus, type BonusAction } from './api/change-bonus';
export { getOffers, offersQueryOptions, useOffers, type Offer } from './api/get-offers';
export { activatePromoCode, checkPromoCode } from './api/promo-code';
export { takeOffer, type Taken } from './api/take-offer';
export { BonusHistoryItem } from './bonus-card';
export { confirmBurnBonuses, DepositOfferChoice, depositOfferChoices, depositOfferValue, NO_BONUS } from './deposit-offers';
export { burnConfirmationOf } from './errors';
export { PlayerBonuses } from './player-bonuses';
export { PromoCodeForm } from './promo-code-form';
