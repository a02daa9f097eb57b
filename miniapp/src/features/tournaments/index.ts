// The public face of the `tournaments` feature (SPEC §7 `tournaments.*`, `leaderboard.get`): what
// other features may import (see src/test/feature-boundaries.test.ts). The router loads the
// pages from their own files, each its own chunk.

export { tournamentKeys, type Tournament } from './api/get-tournaments';
export { leaderboardKeys, type Leaderboard } from './api/get-leaderboard';
