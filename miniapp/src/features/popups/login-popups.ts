import type { AccountInfo } from '@/features/account';
import { queueCampaignPopups } from './campaign-popups';
import { queueUnseenCashback } from './unseen-cashback';

/**
 * SPEC §4 "Login success": the popups queued once a player has logged in (with a password, a
 * social account or Telegram) — the unseen cashback first, then the campaign popups. Never
 * rejects: whatever fails only skips its popups, sign-in goes on.
 */
export async function queueLoginPopups(account: AccountInfo): Promise<void> {
  for (const queue of [queueUnseenCashback, queueCampaignPopups]) {
    try {
      await queue(account);
    } catch (error) {
      console.warn('login popups not queued', error);
    }
  }
}
