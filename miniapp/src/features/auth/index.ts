// The public face of the `auth` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { openSignIn, openSocialRegistration } from './sign-in-dialogs';
