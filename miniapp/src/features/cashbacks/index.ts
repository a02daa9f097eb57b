// The public face of the `cashbacks` feature (SPEC §7 `cashbacks.*`): what other features may
// import (see src/test/feature-boundaries.test.ts).

export { cashbackKeys, payoutCashback, removeCashback } from './api/change-cashback';
export { getCashbacks, type Cashback, type CashbacksPage, type CashbacksQuery, type CashbackStatus } from './api/get-cashbacks';
export { CashbackItem, isClaimable } from './cashback-item';
export { PlayerCashbacks } from './player-cashbacks';
