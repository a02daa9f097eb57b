// The public face of the `bonuses` feature (SPEC §7 `bonuses.*`, `campaigns.*`): what other
// features may import (see src/test/feature-boundaries.test.ts). Everything else in this folder
// is its own business; the router loads the offers and promotions pages from offers-page.tsx.

export { bonusKeys, type Bonus, type BonusesPage } from './api/get-bonuses';
export { offersQueryOptions, type Offer } from './api/get-offers';
export { BonusHistoryItem } from './bonus-card';
export { confirmBurnBonuses, DepositOfferChoice, depositOfferChoices, depositOfferValue } from './deposit-offers';
export { burnConfirmationOf } from './errors';
export { PlayerBonuses } from './player-bonuses';
export { activeBettingBonus, bettingBonusKeys, useActiveBettingBonus, type BettingBonus } from './api/betting-bonuses';
export { bettingBonusReward } from './betting-bonuses';
