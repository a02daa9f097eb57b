import { TRACKING_PARAMS } from '@/lib/entry-params';
import { readStored, STORAGE_KEYS } from '@/lib/storage';

/** SPEC §9: the hit query goes out 3 s after start. */
export const HIT_DELAY_MS = 3000;
/** SPEC §2: a track_id starting with this prefix is rewritten on the hit call. */
export const TD_PREFIX = 'td_';

/**
 * SPEC §2 "a track_id starting with td_ is rewritten on the hit call". SPEC does not say into
 * what; we send the id without its `td_` marker (the marker only routes the id to the tag
 * manager; the tracking beacon counts the bare id). One place to change if the rule differs.
 */
export function rewriteTrackId(trackId: string): string {
  return trackId.startsWith(TD_PREFIX) ? trackId.slice(TD_PREFIX.length) : trackId;
}

export interface HitParams {
  referer: string | null;
  trackId: string | null;
  seonSession: string | null;
}

/** SPEC §7: `GET /hit` with referer, track_id, seon_session; empty values are left out. */
export function hitUrl({ referer, trackId, seonSession }: HitParams): string {
  const search = new URLSearchParams();
  if (referer) search.set('referer', referer);
  if (trackId) search.set('track_id', rewriteTrackId(trackId));
  if (seonSession) search.set('seon_session', seonSession);
  const query = search.toString();
  return query ? `/hit?${query}` : '/hit';
}

/** The visit's track_id: from the address, else as remembered from the entry address. */
export function currentTrackId(search: string): string | null {
  const fromUrl = new URLSearchParams(search).get(TRACKING_PARAMS[0]);
  if (fromUrl?.trim()) return fromUrl.trim();
  try {
    const stored: unknown = JSON.parse(readStored(STORAGE_KEYS.tracking) ?? '{}');
    const value = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>).track_id : null;
    return typeof value === 'string' && value !== '' ? value : null;
  } catch {
    return null;
  }
}

let scheduled = false;

/** Sends the image beacon once per page load, HIT_DELAY_MS after start. */
export function scheduleHit(seonSession: () => string | null = () => null): void {
  if (scheduled) return;
  scheduled = true;
  // The address and referrer as the visitor arrived, before the app rewrites the address.
  const referer = document.referrer || null;
  const trackId = currentTrackId(window.location.search);
  window.setTimeout(() => {
    const beacon = new Image();
    beacon.src = hitUrl({ referer, trackId, seonSession: seonSession() });
  }, HIT_DELAY_MS);
}

/** Tests only: lets a test schedule again. */
export function resetHitForTests(): void {
  scheduled = false;
}
