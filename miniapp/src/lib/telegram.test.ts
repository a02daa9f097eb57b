import { afterEach, describe, expect, it } from 'vitest';
import {
  applyTheme,
  haptic,
  initTelegram,
  isDarkColor,
  isTelegram,
  parseInitData,
  protectGame,
  requestFullscreen,
  setBackButton,
  signInitData,
  telegramStore,
  themeTokens,
} from './telegram';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('telegram', () => {
  it('is not Telegram on a plain web page, and initialising there does nothing and does not throw', async () => {
    expect(isTelegram()).toBe(false);
    await expect(initTelegram()).resolves.toBe(false);
    expect(telegramStore.get().active).toBe(false);
  });

  it('recognises a mini-app launch by its launch parameters', () => {
    window.history.replaceState(null, '', '/#tgWebAppPlatform=android&tgWebAppVersion=8.0');
    expect(isTelegram()).toBe(true);
  });

  it('recognises a reload inside Telegram by the launch parameters the SDK stored', () => {
    window.sessionStorage.setItem('tapps/launchParams', '"tgWebAppPlatform=ios"');
    expect(isTelegram()).toBe(true);
  });

  it('does nothing (and never throws) for back button, haptics, game protection and full screen on the web', async () => {
    expect(() => {
      setBackButton(() => undefined)();
      haptic('bet');
      haptic('error');
      protectGame()();
    }).not.toThrow();
    await expect(requestFullscreen()).resolves.toBe(false);
  });
});

describe('init data', () => {
  it('signs like Telegram: HMAC-SHA256 with the WebAppData key over the sorted lines', async () => {
    const fields = { auth_date: '1700000000', query_id: 'q1', user: '{"id":42,"username":"ann","language_code":"fr"}' };
    const raw = await signInitData(fields, '12345:TEST-token');
    // Computed independently (Python's hmac) over the check string of DESIGN.md.
    expect(new URLSearchParams(raw).get('hash')).toBe('f46887d7631061e1557fb08837f5df001702dae259aae83b9704958ddc4b5ed8');
    expect(raw).toContain('user=%7B%22id%22%3A42');
  });

  it('reads the user, hash and start parameter', () => {
    const launch = parseInitData(
      'user=%7B%22id%22%3A42%2C%22username%22%3A%22ann%22%2C%22language_code%22%3A%22fr%22%7D&start_param=promo-WELCOME&hash=ab',
      'android',
    );
    expect(launch.user).toEqual({ id: 42, username: 'ann', languageCode: 'fr' });
    expect(launch.startParam).toBe('promo-WELCOME');
    expect(launch.hash).toBe('ab');
    expect(parseInitData('user=%7Bbroken').user).toBeNull();
  });
});

describe('theme params → design tokens', () => {
  const light = { bg_color: '#ffffff', secondary_bg_color: '#f1f1f4', text_color: '#000000', hint_color: '#707579', link_color: '#2481cc' };
  const dark = { bg_color: '#17212b', text_color: '#f5f5f5', hint_color: '#708499', destructive_text_color: '#ec3942' };

  it('tells light from dark backgrounds', () => {
    expect(isDarkColor('#ffffff')).toBe(false);
    expect(isDarkColor('#17212b')).toBe(true);
    expect(isDarkColor('#fff')).toBe(false);
  });

  it('maps the surfaces and text of the theme onto the tokens', () => {
    const { scheme, tokens } = themeTokens(light);
    expect(scheme).toBe('light');
    expect(tokens['--color-bg']).toBe('#ffffff');
    expect(tokens['--color-bg-elevated']).toBe('#f1f1f4');
    expect(tokens['--color-text']).toBe('#000000');
    expect(tokens['--color-text-muted']).toBe('#707579');
    expect(tokens['--color-focus']).toBe('#2481cc');
    expect(themeTokens(dark).scheme).toBe('dark');
    expect(themeTokens(dark).tokens['--color-danger']).toBe('#ec3942');
  });

  it('writes them on the root element and removes stale ones when the theme changes', () => {
    expect(applyTheme(light)).toBe('light');
    const root = document.documentElement;
    expect(root.style.getPropertyValue('--color-bg')).toBe('#ffffff');
    expect(root.style.getPropertyValue('--color-focus')).toBe('#2481cc');
    expect(root.dataset.theme).toBe('light');
    expect(applyTheme(dark)).toBe('dark');
    expect(root.style.getPropertyValue('--color-bg')).toBe('#17212b');
    expect(root.style.getPropertyValue('--color-focus')).toBe('');
    expect(telegramStore.get().scheme).toBe('dark');
  });
});
