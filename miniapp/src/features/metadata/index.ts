// The public face of the `metadata` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { useGeneralInfo } from './api/get-general-info';
export { GeneralInfoPanel } from './components/general-info-panel';
