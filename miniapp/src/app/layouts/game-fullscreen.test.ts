import { describe, expect, it } from 'vitest';
import { fullscreenMode } from './game-fullscreen';

describe('visibleFullScreen (SPEC §3 game config)', () => {
  it('asks Telegram for full screen with all and telegram', () => {
    expect(fullscreenMode('all', true)).toBe('telegram');
    expect(fullscreenMode('telegram', true)).toBe('telegram');
    expect(fullscreenMode('product', true)).toBeNull();
    expect(fullscreenMode('none', true)).toBeNull();
  });

  it('offers the browser full screen on the web with all and product', () => {
    expect(fullscreenMode('all', false)).toBe('browser');
    expect(fullscreenMode('product', false)).toBe('browser');
    expect(fullscreenMode('telegram', false)).toBeNull();
    expect(fullscreenMode('none', false)).toBeNull();
  });
});
