import type { GamesConfig } from '@/config/site-config';

/**
 * SPEC §3 game config `visibleFullScreen`: where a game opens full screen. `all`: everywhere
 * (Telegram asks at once; a browser needs a tap, so it gets a button); `telegram`: only inside
 * Telegram; `product`: only on the web site; `none`: never.
 */
export function fullscreenMode(setting: GamesConfig['visibleFullScreen'], inTelegram: boolean): 'telegram' | 'browser' | null {
  if (inTelegram) return setting === 'all' || setting === 'telegram' ? 'telegram' : null;
  return setting === 'all' || setting === 'product' ? 'browser' : null;
}
