// SPEC §2 "Route guard and query parameters": what the address a visitor arrives with asks for.

export const SHOW_POPUP_REG = 'show_popup_reg';
export const SHOW_POPUP_AUTH = 'show_popup_auth';
export const PREVENT_CLOSE = 'prevent_close';
export const REDIRECT_URL = 'redirectUrl';
export const PROMO_CODE = 'promo_code';
export const BACK_URL = 'backUrl';
export const POPUP = 'popup';
export const REAL_HASH = '#real';

/** Parameters passed on to the tag manager (and kept with a registration). */
export const TRACKING_PARAMS = ['track_id', SHOW_POPUP_REG, 'publisher_id', 'goal_id', 'goal_entry_id', 'link_id'] as const;
export type TrackingParam = (typeof TRACKING_PARAMS)[number];

/** The parameters that open a sign-in popup; they leave the address when it closes. */
const POPUP_PARAMS = [SHOW_POPUP_REG, SHOW_POPUP_AUTH, PREVENT_CLOSE];

export type SignInPopup = 'registration' | 'authorization';

export interface EntryIntent {
  /** The sign-in popup to open, if any (guests only). */
  signInPopup: SignInPopup | null;
  /** prevent_close=1: the popup cannot be closed. */
  preventClose: boolean;
  /** #real on a game page: closing the registration goes back to the index. */
  returnHomeOnClose: boolean;
  /** popup={sysname}: the dialog to open. */
  namedPopup: string | null;
  promoCode: string | null;
  backUrl: string | null;
  /** Where to go after signing in (a same-site path), from redirectUrl. */
  redirectUrl: string | null;
  tracking: Partial<Record<TrackingParam, string>>;
}

export interface EntryContext {
  search: string;
  hash: string;
  isGuest: boolean;
  isGamePage: boolean;
  /** show_popup_reg as kept in local storage from an earlier visit. */
  storedShowPopupReg: string | null;
}

const nonEmpty = (value: string | null): string | null => (value === null || value.trim() === '' ? null : value.trim());

/** Only a path on this site: `/…`, never `//host` or `/\host`, which browsers read as another site. */
export function safeRedirectTarget(value: string | null): string | null {
  if (value === null || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}

export function readEntryIntent({ search, hash, isGuest, isGamePage, storedShowPopupReg }: EntryContext): EntryIntent {
  const params = new URLSearchParams(search);
  const realOnGame = isGamePage && hash === REAL_HASH;
  const redirectUrl = safeRedirectTarget(params.get(REDIRECT_URL));

  let signInPopup: SignInPopup | null = null;
  if (isGuest) {
    if (params.has(SHOW_POPUP_REG) || storedShowPopupReg !== null || realOnGame) signInPopup = 'registration';
    else if (params.has(SHOW_POPUP_AUTH) || redirectUrl !== null) signInPopup = 'authorization';
  }

  const tracking: Partial<Record<TrackingParam, string>> = {};
  for (const name of TRACKING_PARAMS) {
    const value = nonEmpty(params.get(name));
    if (value !== null) tracking[name] = value;
  }

  const namedPopup = nonEmpty(params.get(POPUP));
  return {
    signInPopup,
    preventClose: params.get(PREVENT_CLOSE) === '1',
    returnHomeOnClose: isGuest && realOnGame,
    namedPopup,
    promoCode: nonEmpty(params.get(PROMO_CODE)),
    backUrl: safeRedirectTarget(params.get(BACK_URL)),
    redirectUrl,
    tracking,
  };
}

/** The search string without the popup-opening parameters (SPEC: removed when the popup closes). */
export function withoutPopupParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of POPUP_PARAMS) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
