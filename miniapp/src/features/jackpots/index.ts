// The public face of the `jackpots` feature (SPEC §7 `Jackpots.*`): what other features may
// import (see src/test/feature-boundaries.test.ts). The router loads the pages from their own
// files, each its own chunk.

export { jackpotKeys, type Pool } from './api/get-jackpots';
export { jackpotWinnersKeys, type JackpotWin } from './api/get-jackpot-winners';
