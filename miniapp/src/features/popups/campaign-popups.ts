import { isAuthenticated, type AccountInfo } from '@/features/account';
import { fetchContentPopups, type ContentPopup } from '@/features/content';
import { getStoredValue, PLAYER_STORAGE_KEYS, setStoredValue } from '@/features/storage';
import { admits } from './choose-popup';
import { openContentPopup } from './content-popup';

/** The server keeps at most this many characters under one storage key. */
const MAX_STORED_LENGTH = 4096;

/** The stored list of seen sysnames; anything but a JSON array of strings counts as none. */
export function parseSeenCampaignPopups(stored: string | null): string[] {
  if (stored === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The list as stored: JSON, the oldest names dropped first if it would not fit the server's limit. */
function serialiseSeen(seen: readonly string[]): string {
  let kept = [...seen];
  let text = JSON.stringify(kept);
  while (text.length > MAX_STORED_LENGTH && kept.length > 0) {
    kept = kept.slice(1);
    text = JSON.stringify(kept);
  }
  return text;
}

/**
 * SPEC §4 "Login success": queues (behind any dialog already open or queued, such as the
 * social registration or the unseen cashback) every content popup marked `showAfterLogin` whose
 * audience includes signed-in players and that the player has not closed before; closing one adds
 * its sysname to the list kept in the player's storage. Answers the dialog ids. A failed lookup
 * only skips the popups: it must not break sign-in.
 */
export async function queueCampaignPopups(account: AccountInfo): Promise<number[]> {
  if (!isAuthenticated(account)) return [];
  let candidates: ContentPopup[];
  let stored: string | null = null;
  try {
    candidates = (await fetchContentPopups()).filter((popup) => popup.showAfterLogin === true && admits(popup, true));
    // The storage is only asked when the content has a campaign for the player.
    if (candidates.length > 0) stored = await getStoredValue(PLAYER_STORAGE_KEYS.alreadySeenCampaignPopups);
  } catch (error) {
    console.warn('campaign popups not checked', error);
    return [];
  }
  // Shared by the queued popups: each close stores every name closed so far.
  const seen = parseSeenCampaignPopups(stored);
  const wasSeen = (sysname: string) => seen.some((name) => name.toLowerCase() === sysname.toLowerCase());
  const due = candidates.filter((popup) => !wasSeen(popup.sysname));
  return due.map((popup) =>
    openContentPopup(popup, {
      queued: true,
      onClose: (how) => {
        // Swept away by the page changing, it was not really seen: it comes back next sign-in.
        if (how === 'route' || wasSeen(popup.sysname)) return;
        seen.push(popup.sysname);
        setStoredValue(PLAYER_STORAGE_KEYS.alreadySeenCampaignPopups, serialiseSeen(seen)).catch((error: unknown) => {
          console.warn('seen campaign popup not remembered', error);
        });
      },
    }),
  );
}
