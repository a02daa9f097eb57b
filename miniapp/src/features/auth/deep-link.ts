// The deep-link payload grammar of `/start` and `startapp` links (shared/src/telegram/deep_link.rs
// is the reference; the bot and the server read the same grammar). The client reads the
// mini-app's `start_param` to land on the linked page.
//
//   payload = "" / segment *( "-" segment );  segment = kind value
//   value   = 1*( ALPHA / DIGIT / "__" / "_h" )   ; "__" is "_", "_h" is "-"
//   kinds: p promo, g game, t tournament, o offer, v page, r referral, xt/xp/xg/xe/xl tracking

import { gamePath, tournamentPath } from '@/config/paths';
import type { TrackingParam } from '@/lib/entry-params';

export const STARTAPP_MAX_LEN = 512;

/** Page names of the grammar and their client paths. */
export const DEEP_LINK_PAGES: Readonly<Record<string, string>> = {
  home: '/',
  gamehall: '/gamehall',
  cashier: '/cashier',
  deposit: '/cashier/deposit',
  profile: '/profile',
  promotions: '/promotions',
  tournaments: '/tournaments',
  jackpots: '/jackpots',
  loyalty: '/loyalty',
  support: '/support',
  winners: '/winners',
};

const TRACKING: Readonly<Record<string, TrackingParam>> = {
  t: 'track_id',
  p: 'publisher_id',
  g: 'goal_id',
  e: 'goal_entry_id',
  l: 'link_id',
};

export type DeepLinkTarget =
  | { kind: 'game'; value: string }
  | { kind: 'tournament'; value: string }
  | { kind: 'offer'; value: string }
  | { kind: 'page'; value: string };

export interface DeepLink {
  promoCode: string | null;
  target: DeepLinkTarget | null;
  referral: string | null;
  tracking: Partial<Record<TrackingParam, string>>;
}

/** A value with its escapes undone; null when it is empty or malformed. */
function unescape(raw: string): string | null {
  if (raw === '') return null;
  let out = '';
  for (let at = 0; at < raw.length; at += 1) {
    const char = raw.charAt(at);
    if (/[A-Za-z0-9]/.test(char)) out += char;
    else if (char === '_') {
      const next = raw.charAt(at + 1);
      if (next === '_') out += '_';
      else if (next === 'h') out += '-';
      else return null;
      at += 1;
    } else return null;
  }
  return out;
}

/** Decodes a payload strictly (like the Rust reference); null for anything malformed. */
export function decodeDeepLink(payload: string): DeepLink | null {
  const link: DeepLink = { promoCode: null, target: null, referral: null, tracking: {} };
  if (payload === '') return link;
  if (payload.length > STARTAPP_MAX_LEN) return null;
  for (const segment of payload.split('-')) {
    const kind = segment.charAt(0);
    if (kind === 'x') {
      const key = TRACKING[segment.charAt(1)];
      const value = unescape(segment.slice(2));
      if (!key || value === null || key in link.tracking) return null;
      link.tracking[key] = value;
      continue;
    }
    const value = unescape(segment.slice(1));
    if (value === null) return null;
    if (kind === 'p') {
      if (link.promoCode !== null) return null;
      link.promoCode = value;
    } else if (kind === 'g' || kind === 't' || kind === 'o' || kind === 'v') {
      if (link.target !== null) return null;
      if (kind === 'v' && !Object.hasOwn(DEEP_LINK_PAGES, value)) return null;
      link.target = { kind: ({ g: 'game', t: 'tournament', o: 'offer', v: 'page' } as const)[kind], value };
    } else if (kind === 'r') {
      if (link.referral !== null || !/^(0|[1-9][0-9]{0,19})$/.test(value) || BigInt(value) > 18446744073709551615n) return null;
      link.referral = value;
    } else return null;
  }
  return link;
}

/** The unprefixed client path a link's target opens. */
export function deepLinkPath(target: DeepLinkTarget): string {
  switch (target.kind) {
    case 'game':
      return gamePath(target.value);
    case 'tournament':
      return tournamentPath(target.value);
    case 'offer':
      return `/offers/${encodeURIComponent(target.value)}`;
    case 'page':
      return DEEP_LINK_PAGES[target.value] ?? '/';
  }
}
