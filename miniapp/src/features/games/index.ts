// The public face of the `games` feature: what other features may import (see
// src/test/feature-boundaries.test.ts). Everything else in this folder is its own business.

export { categoriesQueryOptions, useCategories, type GameOptions } from './api';
export { GameList } from './game-list-loader';
export { GameRow } from './game-row';
export { openGamesSearch } from './search-dialog';
export { GameHistory, gameHistoryKeys } from './game-history';
