import { apiGet, type RequestOptions } from '@/lib/api/client';

/** Keys the client keeps in the player's server-side storage (SPEC §7 `storage.*`). */
export const PLAYER_STORAGE_KEYS = {
  /** The id of the newest cashback whose popup the player has seen (SPEC §4). */
  alreadySeenCashbackId: 'already_seen_cashback_id',
  /** The sysnames of the after-login campaign popups the player has closed, as a JSON array (SPEC §4). */
  alreadySeenCampaignPopups: 'already_seen_campaign_popups',
} as const;

export type PlayerStorageKey = (typeof PLAYER_STORAGE_KEYS)[keyof typeof PLAYER_STORAGE_KEYS];

/** SPEC §7 `storage.get`: the value the signed-in player stored under `key`, or null. */
export function getStoredValue(key: PlayerStorageKey, options?: RequestOptions): Promise<string | null> {
  return apiGet<string | null>('storage.get', { key }, options);
}
