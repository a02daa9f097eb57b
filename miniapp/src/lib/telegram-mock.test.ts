import { describe, expect, it } from 'vitest';
import { initTelegram, telegramStore } from './telegram';

// Development only (vitest runs with import.meta.env.DEV, like `vite dev`): `?tgMock` starts the
// app as if Telegram had opened it, with init data signed for the local server.
describe('development mock of Telegram', () => {
  it('launches as a mini app with signed init data for a test user and the asked theme', async () => {
    window.history.replaceState(null, '', '/?tgMock=light');
    await expect(initTelegram()).resolves.toBe(true);
    const { active, launch, scheme } = telegramStore.get();
    expect(active).toBe(true);
    expect(scheme).toBe('light');
    expect(launch?.user).toEqual({ id: 99000001, username: 'croupier_dev', languageCode: 'en' });
    expect(launch?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(document.documentElement.style.getPropertyValue('--color-bg')).toBe('#ffffff');
  });
});
