import { afterEach, describe, expect, it } from 'vitest';
import { initTelegram, isTelegram } from './telegram';

afterEach(() => {
  window.sessionStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('telegram', () => {
  it('is not Telegram on a plain web page, and initialising there does nothing and does not throw', async () => {
    expect(isTelegram()).toBe(false);
    await expect(initTelegram()).resolves.toBe(false);
  });

  it('recognises a mini-app launch by its launch parameters', () => {
    window.history.replaceState(null, '', '/#tgWebAppPlatform=android&tgWebAppVersion=8.0');
    expect(isTelegram()).toBe(true);
  });

  it('recognises a reload inside Telegram by the launch parameters the SDK stored', () => {
    window.sessionStorage.setItem('tapps/launchParams', '"tgWebAppPlatform=ios"');
    expect(isTelegram()).toBe(true);
  });
});
