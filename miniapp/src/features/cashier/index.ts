// The public face of the `cashier` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { cashierKeys, getDepositLimits, setDepositLimit, type DepositLimit } from './api';
export { LimitsList } from './deposit-page';
