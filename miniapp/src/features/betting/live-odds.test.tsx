import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockLive } from '@/test/event-source';
import { catalogKeys, type Events, type SportEvent } from './api/get-catalog';
import { LIVE_BACKOFF_MS, liveOddsUrl, useLiveOdds, type OddsChange } from './api/live-odds';
import { initialSlip, slipStore, toggleSelection } from './slip-store';

function event(id: number): SportEvent {
  return {
    id,
    sport: 'football',
    league: 'Premier Division',
    home: 'Ashford',
    away: 'Belmont',
    starts_at: 0,
    status: 'scheduled',
    clock: null,
    home_score: null,
    away_score: null,
    markets: [
      {
        id: id * 10,
        key: '1x2',
        name: 'Match result',
        state: 'active',
        selections: [
          { id: id * 100, key: 'home', name: 'Ashford', odds: '2.50', odds_display: '3/2', result: null },
          { id: id * 100 + 1, key: 'away', name: 'Belmont', odds: '2.80', odds_display: '9/5', result: null },
        ],
      },
    ],
  };
}

function change(overrides: Partial<OddsChange> = {}): OddsChange {
  return {
    id: 1,
    event_id: 1,
    status: 'live',
    clock: 12,
    home_score: 1,
    away_score: 0,
    markets: [],
    selections: [{ id: 100, market_id: 10, odds: '7.35', display: { decimal: '7.35', fractional: '127/20', american: '+635' }, offered: true }],
    ...overrides,
  };
}

function Probe({ ids }: { ids: number[] }) {
  useLiveOdds(ids);
  return null;
}

function setup(ids: number[]) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
  client.setQueryData(catalogKeys.event(1, 'fractional'), event(1));
  client.setQueryData(catalogKeys.events({ sport: null, league: null, status: 'live' }, 'decimal'), { total: 2, items: [event(1), event(2)] } satisfies Events);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const view = render(<Probe ids={ids} />, { wrapper });
  return { client, view, rerender: (next: number[]) => { view.rerender(<Probe ids={next} />); } };
}

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

beforeEach(() => {
  slipStore.set(initialSlip());
});

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('live odds', () => {
  it('asks for each event once, sorted, and nothing for none', () => {
    expect(liveOddsUrl([3, 1, 3])).toBe('/live/sportsbook?events=1%2C3');
    expect(liveOddsUrl([2], '77')).toBe('/live/sportsbook?events=2&last_id=77');
    expect(liveOddsUrl([])).toBeNull();
    expect(liveOddsUrl(Array.from({ length: 150 }, (_, i) => i + 1))?.split('%2C')).toHaveLength(100);
  });

  it('patches the cached event page and lists in every format, and marks the moved price on the slip', () => {
    const live = mockLive();
    toggleSelection({ selectionId: 100, eventId: 1, event: 'Ashford v Belmont', market: 'Match result', selection: 'Ashford', odds: '2.50' });
    const { client, view } = setup([1, 2]);
    const [source] = live.open('/live/sportsbook?events=1%2C2');
    expect(source?.withCredentials).toBe(true);
    act(() => {
      source?.emit('odds', change(), '1');
      source?.emit('odds', 'not json', '2');
    });
    const page = client.getQueryData<SportEvent>(catalogKeys.event(1, 'fractional'));
    expect(page?.status).toBe('live');
    expect(page?.home_score).toBe(1);
    expect(page?.markets[0]?.selections[0]).toMatchObject({ odds: '7.35', odds_display: '127/20' });
    expect(page?.markets[0]?.selections[1]).toMatchObject({ odds: '2.80', odds_display: '9/5' });
    const list = client.getQueryData<Events>(catalogKeys.events({ sport: null, league: null, status: 'live' }, 'decimal'));
    expect(list?.items[0]?.markets[0]?.selections[0]?.odds_display).toBe('7.35');
    expect(list?.items[1]).toEqual(event(2));
    // The slip shows the new price and what it was.
    expect(slipStore.get().entries[0]).toMatchObject({ odds: '7.35', previous: '2.50', suspended: false });
    // A suspension reaches the page and the slip.
    act(() => {
      source?.emit('odds', change({ markets: [{ id: 10, state: 'suspended' }], selections: [{ id: 100, market_id: 10, odds: '7.35', display: null, offered: false }] }), '3');
    });
    expect(client.getQueryData<SportEvent>(catalogKeys.event(1, 'fractional'))?.markets[0]?.state).toBe('suspended');
    expect(slipStore.get().entries[0]?.suspended).toBe(true);
    view.unmount();
    expect(source?.closed).toBe(true);
  });

  it('closes while the page is hidden and resumes after the last message when shown again', () => {
    const live = mockLive();
    setup([1]);
    const [first] = live.open('/live/sportsbook');
    act(() => {
      first?.emit('odds', change(), '41');
    });
    setVisibility('hidden');
    expect(first?.closed).toBe(true);
    expect(live.open('/live/sportsbook')).toHaveLength(0);
    setVisibility('visible');
    const [second] = live.open('/live/sportsbook');
    expect(second?.url).toBe('/live/sportsbook?events=1&last_id=41');
  });

  it('opens again after an error with a growing pause, and reads everything again on a reset', () => {
    vi.useFakeTimers();
    const live = mockLive();
    const { client, rerender } = setup([1]);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    for (const pause of [LIVE_BACKOFF_MS, LIVE_BACKOFF_MS * 2, LIVE_BACKOFF_MS * 4]) {
      const [source] = live.open('/live/sportsbook');
      act(() => {
        source?.emit('error', '');
      });
      expect(source?.closed).toBe(true);
      act(() => {
        vi.advanceTimersByTime(pause - 1);
      });
      expect(live.open('/live/sportsbook')).toHaveLength(0);
      act(() => {
        vi.advanceTimersByTime(1);
      });
      expect(live.open('/live/sportsbook')).toHaveLength(1);
    }
    // Once open, the pause starts over.
    const [source] = live.open('/live/sportsbook');
    act(() => {
      source?.emit('open', '');
      source?.emit('reset', {});
    });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: catalogKeys.all });
    // Another list of events moves the stream.
    rerender([1, 5]);
    expect(source?.closed).toBe(true);
    expect(live.open('/live/sportsbook?events=1%2C5')).toHaveLength(1);
  });
});
