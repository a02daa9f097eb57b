// The public face of the `popups` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { queueLoginPopups } from './login-popups';
