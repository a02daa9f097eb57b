// Analytics events (SPEC §4, §7 `events.handle`, §9: a fixed list of names such as login,
// sign_up, make_deposit): each goes to the tag manager's `dataLayer` and, when it is one the
// server records, to `events.handle` for the operators' reports (fire and forget: analytics never
// stands in the player's way).
import { apiGet } from '@/lib/api/client';

declare global {
  interface Window {
    dataLayer?: Record<string, unknown>[];
  }
}

/** The events `events.handle` accepts (the server's `tracking::EVENTS`). */
export const SERVER_EVENTS: ReadonlySet<string> = new Set([
  'login',
  'sign_up',
  'logout',
  'make_deposit',
  'make_withdrawal',
  'error-login',
  'error-logout',
  'error-sign_up',
  'promo_code_not_found',
  'tracking',
  'game_start',
  'bonus_activated',
]);

export function trackEvent(event: string, data: Record<string, unknown> = {}): void {
  window.dataLayer ??= [];
  window.dataLayer.push({ event, ...data });
  if (!SERVER_EVENTS.has(event)) return;
  const details = JSON.stringify(data);
  apiGet('events.handle', { event, data: details.length <= 2000 ? details : '{}' }).catch((error: unknown) => {
    console.warn('events.handle failed', error);
  });
}
