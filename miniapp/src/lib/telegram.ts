// The only module that talks to the Telegram SDK, so swapping the SDK (it continues as
// @tma.js/sdk-react) touches this file alone. The SDK is imported on demand: web visitors never
// load it. Everything here is safe to call on the web, where it does nothing.
//
// Inside Telegram: init data for the sign-in, theme params → design tokens, safe areas as
// `--tg-viewport-*` variables (Telegram's, since `env(safe-area-inset-*)` is 0 there), the back
// button, haptics, closing confirmation, vertical swipes and full screen.
// In development only (`vite dev`, dropped from production builds): a mock Telegram environment
// outside Telegram, opened with `?tgMock` — see `mockTelegramForDevelopment`.

import { loadScript } from './load-script';
import { createStore, useStore } from './store';

type Sdk = typeof import('@telegram-apps/sdk-react');

// Telegram opens a mini app with these launch parameters in the address; the SDK keeps a copy
// in session storage so that reloads and in-app navigation still know they run inside Telegram.
const LAUNCH_PARAM = 'tgWebAppPlatform';
const STORED_LAUNCH_PARAMS = 'tapps/launchParams';

/** Cheap check, without loading the SDK: was the page opened as a Telegram mini app? */
export function isTelegram(): boolean {
  try {
    return (
      window.location.href.includes(LAUNCH_PARAM) ||
      window.sessionStorage.getItem(STORED_LAUNCH_PARAMS) !== null
    );
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames); then only the address counts.
    return window.location.href.includes(LAUNCH_PARAM);
  }
}

export interface TelegramUser {
  id: number;
  username: string | null;
  languageCode: string | null;
}

/** What Telegram launched the app with. */
export interface TelegramLaunch {
  /** The raw init data string: what the server verifies. */
  initData: string;
  user: TelegramUser | null;
  hash: string;
  /** The deep-link payload (`startapp`). */
  startParam: string | null;
  platform: string;
}

export interface TelegramState {
  active: boolean;
  launch: TelegramLaunch | null;
  /** The colour scheme Telegram's theme asks for. */
  scheme: 'light' | 'dark' | null;
  isFullscreen: boolean;
}

export const telegramStore = createStore<TelegramState>({ active: false, launch: null, scheme: null, isFullscreen: false });

export function useTelegram(): TelegramState {
  return useStore(telegramStore);
}

let sdk: Sdk | null = null;

/** Reads the user, hash and start parameter out of raw init data (split on `&` before decoding). */
export function parseInitData(raw: string, platform = 'unknown'): TelegramLaunch {
  const params = new URLSearchParams(raw);
  let user: TelegramUser | null = null;
  try {
    const parsed: unknown = JSON.parse(params.get('user') ?? 'null');
    if (typeof parsed === 'object' && parsed !== null && typeof (parsed as { id?: unknown }).id === 'number') {
      const fields = parsed as { id: number; username?: unknown; language_code?: unknown };
      user = {
        id: fields.id,
        username: typeof fields.username === 'string' ? fields.username : null,
        languageCode: typeof fields.language_code === 'string' ? fields.language_code : null,
      };
    }
  } catch {
    user = null;
  }
  return { initData: raw, user, hash: params.get('hash') ?? '', startParam: params.get('start_param'), platform };
}

// ---------------------------------------------------------------------------------------------
// Theme params → design tokens
// ---------------------------------------------------------------------------------------------

export type ThemeParams = Partial<Record<string, string>>;

/** Relative luminance below one half: a dark background. */
export function isDarkColor(hex: string): boolean {
  const match = /^#?([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(hex.trim());
  if (!match?.[1]) return true;
  const short = match[1];
  const digits = short.length === 3 ? short.replace(/./g, (c) => c + c) : short;
  const [r, g, b] = [0, 2, 4].map((at) => parseInt(digits.slice(at, at + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/**
 * The design tokens (tokens.css) Telegram's theme params stand for. Only the surfaces and text
 * follow Telegram; the brand accents (gold, green) stay, since they read on light and dark alike.
 */
export function themeTokens(theme: ThemeParams): { scheme: 'light' | 'dark'; tokens: Record<string, string> } {
  const bg = theme.bg_color;
  const text = theme.text_color;
  const tokens: Record<string, string> = {};
  const set = (name: string, value: string | undefined) => {
    if (value) tokens[name] = value;
  };
  set('--color-bg', bg);
  set('--color-bg-elevated', theme.secondary_bg_color ?? bg);
  set('--color-surface', theme.section_bg_color ?? theme.secondary_bg_color ?? bg);
  set('--color-header-bg', theme.header_bg_color ?? bg);
  set('--color-text', text);
  set('--color-text-muted', theme.hint_color ?? theme.subtitle_text_color);
  set('--color-danger', theme.destructive_text_color);
  set('--color-focus', theme.link_color);
  set('--color-border', theme.section_separator_color ?? (text ? `color-mix(in srgb, ${text} 14%, transparent)` : undefined));
  if (text) tokens['--color-border-strong'] = `color-mix(in srgb, ${text} 26%, transparent)`;
  if (bg) {
    const elevated = theme.secondary_bg_color ?? bg;
    tokens['--gradient-hero'] = `linear-gradient(180deg, ${elevated} 0%, ${bg} 100%)`;
  }
  return { scheme: bg ? (isDarkColor(bg) ? 'dark' : 'light') : 'dark', tokens };
}

const appliedTokens = new Set<string>();

/** Writes the theme's tokens over tokens.css on the root element (and removes stale ones). */
export function applyTheme(theme: ThemeParams): 'light' | 'dark' {
  const { scheme, tokens } = themeTokens(theme);
  const root = document.documentElement;
  for (const name of appliedTokens) if (!(name in tokens)) root.style.removeProperty(name);
  appliedTokens.clear();
  for (const [name, value] of Object.entries(tokens)) {
    root.style.setProperty(name, value);
    appliedTokens.add(name);
  }
  root.style.setProperty('color-scheme', scheme);
  root.dataset.theme = scheme;
  telegramStore.set((state) => ({ ...state, scheme }));
  return scheme;
}

// ---------------------------------------------------------------------------------------------
// Start-up
// ---------------------------------------------------------------------------------------------

/** Calls an SDK function only where the running Telegram supports it; never throws. */
function attempt(name: string, action: () => unknown): void {
  try {
    const result = action();
    if (result instanceof Promise) {
      result.catch((error: unknown) => {
        console.warn(`Telegram ${name} failed`, error);
      });
    }
  } catch (error) {
    console.warn(`Telegram ${name} failed`, error);
  }
}

function available(fn: { isAvailable: () => boolean }): boolean {
  try {
    return fn.isAvailable();
  } catch {
    return false;
  }
}

/**
 * Starts the SDK and tells Telegram the app is ready to be shown. Resolves to whether the app
 * runs inside Telegram; never rejects, so the web site is unaffected by anything that goes wrong.
 */
export async function initTelegram(): Promise<boolean> {
  if (import.meta.env.DEV && !isTelegram()) await mockTelegramForDevelopment();
  if (!isTelegram()) return false;
  try {
    const loaded = await import('@telegram-apps/sdk-react');
    if (!loaded.isTMA()) return false;
    sdk = loaded;
    loaded.init();
    const { miniApp, themeParams, viewport, backButton, closingBehavior, swipeBehavior } = loaded;
    if (available(miniApp.mountSync)) miniApp.mountSync();
    if (available(themeParams.mountSync)) themeParams.mountSync();
    applyTheme(themeParams.state());
    themeParams.state.sub((theme) => {
      applyTheme(theme);
    });
    if (available(backButton.mount)) backButton.mount();
    if (available(closingBehavior.mount)) closingBehavior.mount();
    if (available(swipeBehavior.mount)) swipeBehavior.mount();
    // Mounting tells Telegram the stored state, vertical swipes off by default: only games want that.
    if (available(swipeBehavior.enableVertical)) swipeBehavior.enableVertical();
    if (available(viewport.mount)) {
      attempt('viewport', async () => {
        await viewport.mount();
        if (available(viewport.bindCssVars)) viewport.bindCssVars();
        telegramStore.set((state) => ({ ...state, isFullscreen: viewport.isFullscreen() }));
        viewport.isFullscreen.sub((isFullscreen) => {
          telegramStore.set((state) => ({ ...state, isFullscreen }));
        });
      });
    }
    const lp = loaded.retrieveLaunchParams();
    const launch = parseInitData(loaded.retrieveRawInitData() ?? '', lp.tgWebAppPlatform);
    document.documentElement.dataset.telegram = launch.platform;
    telegramStore.set((state) => ({ ...state, active: true, launch }));
    if (available(miniApp.ready)) miniApp.ready();
    return true;
  } catch (error) {
    console.error('Telegram initialisation failed', error);
    sdk = null;
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// What the rest of the app uses
// ---------------------------------------------------------------------------------------------

/** Telegram's back button: shown with `onBack` as its action, or hidden with null. */
export function setBackButton(onBack: (() => void) | null): () => void {
  const button = sdk?.backButton;
  if (!button) return () => undefined;
  if (!onBack) {
    if (available(button.hide)) button.hide();
    return () => undefined;
  }
  if (available(button.show)) button.show();
  const off = available(button.onClick) ? button.onClick(onBack) : () => undefined;
  return () => {
    off();
  };
}

export type HapticKind = 'bet' | 'deposit' | 'success' | 'error' | 'selection';

/** A haptic signal for a key action (SPEC-issue 9: bet, deposit, errors). */
export function haptic(kind: HapticKind): void {
  const feedback = sdk?.hapticFeedback;
  if (!feedback) return;
  attempt('haptics', () => {
    if (kind === 'bet' && available(feedback.impactOccurred)) feedback.impactOccurred('medium');
    else if (kind === 'selection' && available(feedback.selectionChanged)) feedback.selectionChanged();
    else if (available(feedback.notificationOccurred)) {
      feedback.notificationOccurred(kind === 'error' ? 'error' : 'success');
    }
  });
}

/**
 * While a game runs: Telegram asks before closing and vertical swipes do not collapse the app.
 * Returns the function that restores both.
 */
export function protectGame(): () => void {
  const loaded = sdk;
  if (!loaded) return () => undefined;
  const { closingBehavior, swipeBehavior } = loaded;
  if (available(closingBehavior.enableConfirmation)) closingBehavior.enableConfirmation();
  if (available(swipeBehavior.disableVertical)) swipeBehavior.disableVertical();
  return () => {
    if (available(closingBehavior.disableConfirmation)) closingBehavior.disableConfirmation();
    if (available(swipeBehavior.enableVertical)) swipeBehavior.enableVertical();
  };
}

/** Asks Telegram for full screen; resolves to whether the app is full screen (false if refused). */
export async function requestFullscreen(): Promise<boolean> {
  const viewport = sdk?.viewport;
  if (!viewport || !available(viewport.requestFullscreen)) return false;
  try {
    await viewport.requestFullscreen();
    return viewport.isFullscreen();
  } catch (error) {
    console.info('Telegram refused full screen', error);
    return false;
  }
}

export async function exitFullscreen(): Promise<void> {
  const viewport = sdk?.viewport;
  if (!viewport || !viewport.isFullscreen() || !available(viewport.exitFullscreen)) return;
  try {
    await viewport.exitFullscreen();
  } catch (error) {
    console.info('Telegram did not leave full screen', error);
  }
}

// ---------------------------------------------------------------------------------------------
// Development only: a mock Telegram environment (never in a production build)
// ---------------------------------------------------------------------------------------------

const encoder = new TextEncoder();

async function hmac(key: BufferSource, message: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(message));
}

/**
 * Signs init data fields as Telegram does (DESIGN.md): key = HMAC_SHA256("WebAppData", token),
 * hash = hex HMAC_SHA256(key, the sorted `key=value` lines). Answers the raw init data string.
 */
export async function signInitData(fields: Readonly<Record<string, string>>, botToken: string): Promise<string> {
  const lines = Object.entries(fields)
    .filter(([name]) => name !== 'hash')
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const secret = await hmac(encoder.encode('WebAppData'), botToken);
  const hash = await hmac(new Uint8Array(secret), lines.join('\n'));
  const hex = [...new Uint8Array(hash)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return [...Object.entries(fields), ['hash', hex] as const]
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
}

const DEV_MOCK_PARAM = 'tgMock';
const DEV_THEMES: Record<'light' | 'dark', ThemeParams> = {
  light: { bg_color: '#ffffff', secondary_bg_color: '#f1f1f4', text_color: '#000000', hint_color: '#707579', link_color: '#2481cc', button_color: '#2481cc', button_text_color: '#ffffff', section_bg_color: '#ffffff', header_bg_color: '#ffffff', destructive_text_color: '#e53935' },
  dark: { bg_color: '#17212b', secondary_bg_color: '#232e3c', text_color: '#f5f5f5', hint_color: '#708499', link_color: '#6ab3f3', button_color: '#5288c1', button_text_color: '#ffffff', section_bg_color: '#17212b', header_bg_color: '#17212b', destructive_text_color: '#ec3942' },
};

/**
 * `vite dev` with `?tgMock` (or `?tgMock=light`) outside Telegram: launches the app as if Telegram
 * had opened it, for a test user, signed with `VITE_TELEGRAM_MOCK_BOT_TOKEN` when set (the same
 * token the local server runs with, so `auth.telegram` accepts it). Compiled out of production
 * builds: `import.meta.env.DEV` is false there and the bundler drops this code.
 */
async function mockTelegramForDevelopment(): Promise<void> {
  if (!import.meta.env.DEV) return;
  const wanted = new URLSearchParams(window.location.search).get(DEV_MOCK_PARAM);
  if (wanted === null) return;
  const scheme = wanted === 'light' ? 'light' : 'dark';
  const token = (import.meta.env.VITE_TELEGRAM_MOCK_BOT_TOKEN as string | undefined) ?? 'dev-bot-token';
  const fields = {
    auth_date: String(Math.floor(Date.now() / 1000)),
    query_id: 'dev-mock',
    signature: 'dev-mock-signature',
    user: JSON.stringify({ id: 99000001, first_name: 'Dev', username: 'croupier_dev', language_code: 'en' }),
  };
  const initData = await signInitData(fields, token);
  const { mockTelegramEnv } = await import('@telegram-apps/sdk-react');
  mockTelegramEnv({
    launchParams: {
      tgWebAppData: initData,
      tgWebAppVersion: '8.0',
      tgWebAppPlatform: 'tdesktop',
      tgWebAppThemeParams: DEV_THEMES[scheme],
    },
    onEvent: ([method]) => {
      console.debug('[telegram mock]', method);
    },
  });
}

// ---- The Login Widget (linking Telegram to an account from the ordinary web site) ------------

/** What the Login Widget answers (core.telegram.org/widgets/login): every field as sent. */
export type TelegramLoginData = Readonly<Record<string, string>>;

interface TelegramLoginGlobal {
  Login?: {
    auth: (options: { bot_id: number; request_access?: 'write'; lang?: string }, callback: (data: Record<string, unknown> | false) => void) => void;
  };
}

const LOGIN_WIDGET_SRC = 'https://telegram.org/js/telegram-widget.js?22';

function loginGlobal(): TelegramLoginGlobal | undefined {
  return (window as unknown as { Telegram?: TelegramLoginGlobal }).Telegram;
}

function loadLoginWidget(): Promise<void> {
  return loginGlobal()?.Login ? Promise.resolve() : loadScript(LOGIN_WIDGET_SRC);
}

/**
 * Opens Telegram's login window for `botId`; answers the signed data to send to the server
 * (`account.linkTelegram`), or null when the player closed it without agreeing.
 */
export async function askTelegramLogin(botId: number, lang: string): Promise<TelegramLoginData | null> {
  await loadLoginWidget();
  const login = loginGlobal()?.Login;
  if (!login) throw new Error('the Telegram Login Widget is not available');
  return new Promise((resolve) => {
    login.auth({ bot_id: botId, request_access: 'write', lang }, (data) => {
      if (!data) {
        resolve(null);
        return;
      }
      const fields: Record<string, string> = {};
      for (const [key, value] of Object.entries(data)) {
        if (typeof value === 'string' || typeof value === 'number') fields[key] = String(value);
      }
      resolve(fields);
    });
  });
}
