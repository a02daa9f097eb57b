import { createHmac } from 'node:crypto';
import type { Page } from '@playwright/test';

// A mocked Telegram client (what the Android app provides: `window.TelegramWebviewProxy.postEvent`
// to call it, `window.Telegram.WebView.receiveEvent` for its answers, launch parameters in the
// address) whose init data the journeys sign with the bot token the server runs with
// (global-setup: TELEGRAM_BOT_TOKEN). Used by telegram.spec.ts and betting.spec.ts.

export const BOT_TOKEN = process.env.CROUPIER_E2E_BOT_TOKEN ?? '';

export const THEMES = {
  light: { bg_color: '#ffffff', secondary_bg_color: '#efeff4', text_color: '#000000', hint_color: '#707579', link_color: '#2481cc', button_color: '#2481cc', button_text_color: '#ffffff' },
  dark: { bg_color: '#17212b', secondary_bg_color: '#232e3c', text_color: '#f5f5f5', hint_color: '#708499', link_color: '#6ab3f3', button_color: '#5288c1', button_text_color: '#ffffff' },
} as const;

/** Init data signed as Telegram signs it (DESIGN.md "Telegram init data"). */
export function signedInitData(fields: Record<string, string>, token: string): string {
  const checkString = Object.entries(fields)
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(token).digest();
  const hash = createHmac('sha256', secret).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

let nextUserId = Date.now() % 1_000_000_000;

export function initDataFor(username: string, extra: Record<string, string> = {}): { initData: string; userId: number } {
  nextUserId += 1;
  const userId = nextUserId;
  const initData = signedInitData(
    {
      ...extra,
      auth_date: String(Math.floor(Date.now() / 1000)),
      query_id: `e2e-${String(userId)}`,
      user: JSON.stringify({ id: userId, first_name: 'Test', username, language_code: 'en' }),
      // Telegram sends a third-party Ed25519 signature too; it stays in the HMAC check string.
      // (The SDK refuses init data without one.) Its value is not checked by this server.
      signature: 'e2e-signature-not-checked',
    },
    BOT_TOKEN,
  );
  return { initData, userId };
}

export interface MockOptions {
  theme: keyof typeof THEMES;
  allowFullscreen: boolean;
}

/**
 * Installs the mocked Telegram client before any page script runs. (Browser-side code is given
 * as text: the journeys are compiled without the DOM library.)
 */
export async function mockTelegram(page: Page, { theme, allowFullscreen }: MockOptions) {
  const script = `(() => {
    const themeParams = ${JSON.stringify(THEMES[theme])};
    const allow = ${JSON.stringify(allowFullscreen)};
    window.__tgEvents = [];
    const answer = (name, payload) => {
      setTimeout(() => window.Telegram.WebView.receiveEvent(name, payload), 10);
    };
    window.TelegramWebviewProxy = {
      postEvent(name, data) {
        window.__tgEvents.push({ name, data: data ? JSON.parse(data) : null });
        if (name === 'web_app_request_theme') answer('theme_changed', { theme_params: themeParams });
        if (name === 'web_app_request_viewport') {
          answer('viewport_changed', { height: window.innerHeight, width: window.innerWidth, is_expanded: true, is_state_stable: true });
        }
        if (name === 'web_app_request_safe_area') answer('safe_area_changed', { top: 24, bottom: 16, left: 0, right: 0 });
        if (name === 'web_app_request_content_safe_area') answer('content_safe_area_changed', { top: 40, bottom: 0, left: 0, right: 0 });
        if (name === 'web_app_request_fullscreen') {
          if (allow) answer('fullscreen_changed', { is_fullscreen: true });
          else answer('fullscreen_failed', { error: 'UNSUPPORTED' });
        }
        if (name === 'web_app_exit_fullscreen') answer('fullscreen_changed', { is_fullscreen: false });
      },
    };
  })();`;
  await page.addInitScript({ content: script });
}

export function launchHash(initData: string, theme: keyof typeof THEMES): string {
  const params = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(THEMES[theme]),
  });
  return `#${params.toString()}`;
}

export async function telegramEvents(page: Page, name: string): Promise<unknown[]> {
  return page.evaluate<unknown[]>(
    `window.__tgEvents.filter((event) => event.name === ${JSON.stringify(name)}).map((event) => event.data)`,
  );
}

export async function lastEvent(page: Page, name: string): Promise<unknown> {
  return (await telegramEvents(page, name)).at(-1);
}

export async function pressBackButton(page: Page) {
  await page.evaluate("window.Telegram.WebView.receiveEvent('back_button_pressed')");
}
