// The public face of the `protection` feature (responsible gaming, identity verification,
// support): what other features may import. Its pages are routes of app/.

export { ChatWidget, sandboxChatOpen } from './chat';
export { RealityCheckWatcher } from './reality-check';
export { getVerificationStatus, type Exclusion, type VerificationStatus } from './api';
export { installVerificationDialog, openVerificationDialog } from './verification-dialog';
