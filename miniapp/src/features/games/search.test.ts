import { afterEach, describe, expect, it, vi } from 'vitest';
import { debounce, SEARCH_DEBOUNCE_MS, SEARCH_RESULTS_LIMIT, SEARCH_SUGGESTIONS_LIMIT, searchTerm } from './search';
import { gameOptionsParam, gameView, type Game } from './api';

afterEach(() => {
  vi.useRealTimers();
});

describe('games search', () => {
  it('uses the SPEC §9 constants', () => {
    expect([SEARCH_RESULTS_LIMIT, SEARCH_SUGGESTIONS_LIMIT, SEARCH_DEBOUNCE_MS]).toEqual([15, 12, 300]);
  });

  it('normalises the query and waits for two characters', () => {
    expect(searchTerm('  ')).toBeNull();
    expect(searchTerm(' d ')).toBeNull();
    expect(searchTerm('  lucky   dice ')).toBe('lucky dice');
  });

  it('debounces to the last value after 300 ms of quiet', () => {
    vi.useFakeTimers();
    const run = vi.fn();
    const debounced = debounce(run);
    debounced('d');
    vi.advanceTimersByTime(200);
    debounced('di');
    vi.advanceTimersByTime(299);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledExactlyOnceWith('di');
    debounced('dic');
    debounced.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('games.get options', () => {
  it('leaves empty filters and the all type out', () => {
    expect(gameOptionsParam({ type: 'all', search: '', favourites: false, providers: 'house', limit: 15 })).toBe(
      '{"providers":"house","limit":15}',
    );
    expect(gameOptionsParam({ type: 'slot', favourites: true, sysnames: [] })).toBe('{"type":"slot","favourites":true}');
  });

  it('lets non-empty description values override the top-level ones', () => {
    const game = { name: 'Dice', image_url: '/a.svg', description: { name: 'Dés', img_288_192: '' } } as Game;
    expect(gameView(game)).toEqual({ name: 'Dés', image: '/a.svg' });
    expect(gameView({ ...game, description: {} })).toEqual({ name: 'Dice', image: '/a.svg' });
  });
});
