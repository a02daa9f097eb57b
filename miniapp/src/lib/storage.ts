// Storage can be blocked (privacy settings, sandboxed frames): the site then works without memory.

export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Nothing to remember with; see above.
  }
}

/** localStorage keys the client owns, in one place. */
export const STORAGE_KEYS = {
  showPopupReg: 'show_popup_reg',
  promoCode: 'promo_code',
  backUrl: 'backUrl',
  tracking: 'tracking_params',
  balances: 'balances',
  confirmSent: 'confirm_sent',
  /** The sportsbook's odds format (decimal, fractional, american). */
  oddsFormat: 'odds_format',
  /** The bet slip's "accept odds changes" choice (never, higher, any). */
  acceptOdds: 'accept_odds',
} as const;
