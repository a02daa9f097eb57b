import { apiPost } from '@/lib/api/client';
import type { TelegramLaunch } from '@/lib/telegram';
import { mirrorBalances, type AccountInfo } from '@/features/account';

/**
 * DESIGN.md "Telegram sign-in": `auth.telegram` with the raw init data (what the server
 * verifies) and SPEC §7's Telegram-style sign-up fields; answers like account.getInfo.
 */
export async function signInWithTelegram(launch: TelegramLaunch): Promise<AccountInfo> {
  const account = await apiPost<AccountInfo>(
    'auth.telegram',
    {
      init_data: launch.initData,
      is_tg: 1,
      id: launch.user ? String(launch.user.id) : null,
      username: launch.user?.username ?? null,
      hash: launch.hash,
      language_code: launch.user?.languageCode ?? null,
      payload: launch.startParam,
    },
    { textFields: ['username', 'language_code', 'payload'] },
  );
  mirrorBalances(account);
  return account;
}
