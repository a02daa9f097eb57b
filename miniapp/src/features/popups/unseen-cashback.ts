import { isAuthenticated, type AccountInfo } from '@/features/account';
import { formatMoney } from '@/lib/format';
import { currentLocale, i18n } from '@/lib/i18n';
import { getCashbacks, type Cashback } from '@/features/cashbacks';
import { getStoredValue, PLAYER_STORAGE_KEYS, setStoredValue } from '@/features/storage';
import { openContentPopup } from './content-popup';

/** The dialog name of the popup (as `popup:<sysname>` in the stack). */
export const UNSEEN_CASHBACK_SYSNAME = 'unseenCashback';

/** The player's newest active cashback, and the id of the last one they were shown. */
async function newestAndSeen(): Promise<{ newest: Cashback | undefined; seen: string | null }> {
  const [page, seen] = await Promise.all([
    getCashbacks({ statuses: ['active'], count: 1, sort: 'created_at', order: 'desc' }),
    getStoredValue(PLAYER_STORAGE_KEYS.alreadySeenCashbackId),
  ]);
  return { newest: page.items[0], seen };
}

/**
 * SPEC §4 "Login success": queues the unseen-cashback popup (after any dialog already open, such
 * as the social registration) when the player's newest active cashback is not the one they last
 * saw; closing it remembers that cashback on the server. Answers the dialog id, or null when
 * there is nothing to show. A failed lookup only skips the popup: it must not break sign-in.
 */
export async function queueUnseenCashback(account: AccountInfo): Promise<number | null> {
  if (!isAuthenticated(account)) return null;
  let found: Awaited<ReturnType<typeof newestAndSeen>>;
  try {
    found = await newestAndSeen();
  } catch (error) {
    console.warn('unseen cashback not checked', error);
    return null;
  }
  const { newest, seen } = found;
  if (!newest || String(newest.id) === seen) return null;
  const id = String(newest.id);
  return openContentPopup(
    {
      id: newest.id,
      sysname: UNSEEN_CASHBACK_SYSNAME,
      title: i18n.t('popups.unseenCashback.title', {
        amount: formatMoney(newest.amount.amount, newest.amount.currency, currentLocale()),
      }),
      text: newest.description,
      kind: 'popup',
      size: 'custom',
      buttonTitle: i18n.t('popups.unseenCashback.button'),
      buttonUrl: null,
      image: null,
      audience: 'player',
    },
    {
      queued: true,
      onClose: (how) => {
        // Swept away by the page changing, it was not really seen: it comes back next sign-in.
        if (how === 'route') return;
        setStoredValue(PLAYER_STORAGE_KEYS.alreadySeenCashbackId, id).catch((error: unknown) => {
          console.warn('seen cashback not remembered', error);
        });
      },
    },
  );
}
