// The public face of the `content` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { fetchContentPopups, popupsQueryOptions, toContentPopup, toContentPopups, type ContentPopup } from './api/popups';
export { isExternalUrl } from './api/redirects';
export { siteConfigFromContent, siteContentQueryOptions } from './site-config-content';
export { LOYALTY_NOTICE_DEFAULTS, loyaltyContentQueryOptions, toLoyaltyContent, useLoyaltyContent, type LoyaltyContent } from './api/loyalty';
