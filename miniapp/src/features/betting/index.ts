// The public face of the `betting` feature (issue 20, the house sportsbook's client): what other
// features may import (see src/test/feature-boundaries.test.ts). The router loads the pages from
// their own files, each its own chunk.

export { betKeys, type Bet } from './api/bets';
export { catalogKeys } from './api/get-catalog';
export { PlayerBets } from './bets-list';
