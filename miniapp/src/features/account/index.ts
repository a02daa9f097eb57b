// The public face of the `account` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { confirmContact, sendContactConfirmation } from './api/confirm-contact';
export { accountInfoQueryOptions, accountKeys, getAccountInfo, isAuthenticated, mirrorBalances, useAccount, useAccountInfo, type AccountInfo, type Money } from './api/get-account-info';
export { ProfileFrame } from './profile-frame';
export { fieldError, formError } from './use-api-form';
export { profileInfoQueryOptions, useProfileInfo, type Contact } from './api/get-profile-info';
export { setCurrency } from './api/set-currency';
