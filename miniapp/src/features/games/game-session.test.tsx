import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { GAME_SESSION_WARNING_MS } from './game-page';

afterEach(async () => {
  vi.useRealTimers();
  window.localStorage.clear();
  await activateLocale('en');
});

const DICE = { id: 1, sysname: 'dice', name: 'Dice', image_url: '/dice.svg', description: {}, provider: 'house', type: 'fast', rtp: '99', volatility: 'low', has_demo: true, config: null, is_favourite: false };

/** The play path's JSON answer for the `n`th launch, its session `expiresIn` seconds long. */
function launchAnswer(n: number, expiresIn: number) {
  const token = `tok-${String(n)}`;
  return () =>
    new Response(
      JSON.stringify({
        url: `http://localhost/games/house/dice?token=${token}`,
        token,
        mode: 'real',
        currency: 'USD',
        // Far from the device's clock on purpose: the page goes by `expires_in`.
        expires_at: 1_000,
        expires_in: expiresIn,
      }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    );
}

const frameSrc = () => screen.getByTitle('Dice').getAttribute('src');

describe('a game session that ends', () => {
  it('offers to start the game again shortly before the end, replaces the frame at the end, and starts again on request', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fifteen = 15 * 60_000;
    const api = mockApi({
      'account.getInfo': player(),
      'account.getprofileinfo': { contacts: [] },
      'games.get': { total: 1, items: [DICE] },
      '/platform/game/dice/play': launchAnswer(1, fifteen / 1000),
    });
    renderApp('/game/dice');
    await waitFor(() => {
      expect(frameSrc()).toBe('http://localhost/games/house/dice?token=tok-1');
    });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(fifteen - GAME_SESSION_WARNING_MS - 1_000);
    });
    expect(screen.queryByTestId('game-session-ending')).toBeNull();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_000);
    });
    const notice = await screen.findByTestId('game-session-ending');
    expect(notice).toHaveTextContent('Your game session ends in a few minutes');
    // The game plays on meanwhile: nothing reloads it by itself.
    expect(frameSrc()).toBe('http://localhost/games/house/dice?token=tok-1');
    expect(api.calls('/platform/game/dice/play')).toHaveLength(1);

    await act(async () => {
      await vi.advanceTimersByTimeAsync(GAME_SESSION_WARNING_MS);
    });
    const ended = await screen.findByTestId('game-session-ended');
    expect(ended).toHaveTextContent('Your game session has ended');
    expect(screen.queryByTitle('Dice')).toBeNull();
    expect(screen.queryByTestId('game-session-ending')).toBeNull();

    api.on('/platform/game/dice/play', launchAnswer(2, fifteen / 1000));
    fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
    await waitFor(() => {
      expect(frameSrc()).toBe('http://localhost/games/house/dice?token=tok-2');
    });
    expect(api.calls('/platform/game/dice/play')).toHaveLength(2);
    expect(screen.queryByTestId('game-session-ended')).toBeNull();
    expect(screen.queryByTestId('game-session-ending')).toBeNull();
  });

  it('tells a player back from a sleeping phone that the session ended, in French too', async () => {
    await activateLocale('fr');
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'account.getInfo': player(),
      'account.getprofileinfo': { contacts: [] },
      'games.get': { total: 1, items: [DICE] },
      '/platform/game/dice/play': launchAnswer(1, 600),
    });
    renderApp('/fr/game/dice');
    await waitFor(() => {
      expect(frameSrc()).toBe('http://localhost/games/house/dice?token=tok-1');
    });
    // Timers do not run on a sleeping phone: the clock jumps past the end, then the page is seen.
    vi.setSystemTime(Date.now() + 601_000);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(await screen.findByTestId('game-session-ended')).toHaveTextContent('Votre session de jeu est terminée');
    expect(screen.getByRole('button', { name: 'Relancer le jeu' })).toBeVisible();
  });
});
