// The public face of the `storage` feature (SPEC §7 `storage.*`, the player's server-side
// key-value storage): what other features may import (see src/test/feature-boundaries.test.ts).

export { getStoredValue, PLAYER_STORAGE_KEYS, type PlayerStorageKey } from './api/get-stored-value';
export { setStoredValue } from './api/set-stored-value';
