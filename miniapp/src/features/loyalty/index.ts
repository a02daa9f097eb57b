// The public face of the `loyalty` feature (SPEC §7 `loyalty.*`): what other features and the
// app may import (see src/test/feature-boundaries.test.ts).

export {
  getLoyaltyInfo,
  loyaltyKeys,
  progressPercent,
  type LoyaltyInfo,
  type LoyaltyNotice,
  type Product,
} from './api/loyalty';
export { LoyaltyNotices } from './notices';
export { LoyaltyPage, LoyaltyProgramPage, ProfileLoyalty } from './pages';
export { LoyaltyShopPage } from './shop';
