// The public face of the `winners` feature (SPEC §7 `winners.*`): what other features may import
// (see src/test/feature-boundaries.test.ts). The router loads the page from its own file.

export { winnersKeys, type Winner, type WinnerKind } from './api/get-winners';
export type { WinnerDisplay } from './api/privacy';
