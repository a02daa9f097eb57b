/** Unprefixed (default-locale) paths; `localizePath` adds the locale prefix. */
export const paths = {
  home: '/',
  betting: '/betting',
  cashierDeposit: '/cashier/deposit',
  cashierHistory: '/cashier/history',
  cashierWithdraw: '/cashier/withdraw',
  gamehall: '/gamehall',
  jackpots: '/jackpots',
  loyalty: '/loyalty',
  offers: '/offers',
  profileSettings: '/profile/settings',
  profileSecurity: '/profile/security',
  promotions: '/promotions',
  providers: '/providers',
  support: '/support',
  tournaments: '/tournaments',
  winners: '/winners',
  responsibleGame: '/responsible-game',
  formsSignIn: '/forms/sign_in',
  formsSignUp: '/forms/sign_up',
  icons: '/_icons',
} as const;

/** SPEC §2: /cashier/deposit/{name}. */
export function depositPath(sysname?: string): string {
  return sysname ? `${paths.cashierDeposit}/${encodeURIComponent(sysname)}` : paths.cashierDeposit;
}

/** SPEC §2: /gamehall?category={id}. */
export function gamehallCategoryPath(category: string): string {
  return `${paths.gamehall}?${new URLSearchParams({ category }).toString()}`;
}

/** SPEC §2: /gamehall?providers=a,b. */
export function gamehallProvidersPath(providers: readonly string[]): string {
  return `${paths.gamehall}?providers=${providers.map(encodeURIComponent).join(',')}`;
}

/** SPEC §2: /game/{name}. */
export function gamePath(sysname: string): string {
  return `/game/${encodeURIComponent(sysname)}`;
}

export type GameMode = 'play' | 'demo';

/**
 * SPEC §2 game play path: /platform/game/{sysname, or custom/{custom id}}/{mode}, mode play by
 * default. It is a server address (the launch), never localized.
 */
export function gamePlayPath(game: string | { customId: string | number }, mode: GameMode = 'play'): string {
  const target =
    typeof game === 'string' ? encodeURIComponent(game) : `custom/${encodeURIComponent(String(game.customId))}`;
  return `/platform/game/${target}/${mode}`;
}

/** SPEC §2 /tournaments/{id}. */
export function tournamentPath(id: number | string): string {
  return `${paths.tournaments}/${encodeURIComponent(String(id))}`;
}

/** SPEC §2 /tournaments/{id}/gamehall: the tournament's qualifying games. */
export function tournamentGamehallPath(id: number | string): string {
  return `${tournamentPath(id)}/gamehall`;
}

/** SPEC §2 /jackpots/{id}. */
export function jackpotPath(id: number | string): string {
  return `${paths.jackpots}/${encodeURIComponent(String(id))}`;
}

/** A route's numeric `:id`, or NaN for anything but a positive whole number (then nothing is asked of the server). */
export function routeId(param: string | undefined): number {
  return param !== undefined && /^\d{1,15}$/.test(param) && Number(param) > 0 ? Number(param) : Number.NaN;
}

/** The sportsbook's event page: every market of one event. */
export function bettingEventPath(id: number): string {
  return `${paths.betting}/event/${encodeURIComponent(String(id))}`;
}
