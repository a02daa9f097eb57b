import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { OddsFormat } from '../odds';
import { applyPrices } from '../slip-store';
import { catalogKeys, type EventStatus, type Events, type MarketState, type SportEvent } from './get-catalog';

// Live odds: the server's `GET /live/sportsbook?events=…` stream (Server-Sent Events) of what the
// feed changes in the events a betting page shows or the slip holds. Each `odds` message patches
// the cached events in place (every odds format the cache holds: the message carries each
// format's text) and hands the slip its prices, so a moved price is marked there the way the
// slip marks any change it sees. An `reset` message (the server no longer has what this page
// missed) reads the events again.
//
// The connection is this page's own: it closes while the page is hidden and when it unmounts,
// and after an error it opens again after a growing pause (1 s, 2 s, 4 s … 30 s), passing the
// last message's id so the server sends what was missed. EventSource is a plain browser API,
// present in Telegram's webview too; where it is missing the pages keep their slow polling.

/** At most this many events per stream (the server's limit). */
export const LIVE_MAX_EVENTS = 100;
/** The first pause before opening again after an error; it doubles up to {@link LIVE_MAX_BACKOFF_MS}. */
export const LIVE_BACKOFF_MS = 1000;
export const LIVE_MAX_BACKOFF_MS = 30_000;

export interface LiveSelection {
  id: number;
  market_id: number;
  /** Decimal ("2.35"); null: no price. */
  odds: string | null;
  display: Record<OddsFormat, string> | null;
  /** Bets are taken on it now. */
  offered: boolean;
}

/** One `odds` message: what changed in one event. */
export interface OddsChange {
  id: number;
  event_id: number;
  status: EventStatus;
  clock: number | null;
  home_score: number | null;
  away_score: number | null;
  markets: { id: number; state: MarketState }[];
  selections: LiveSelection[];
}

/** The stream's address for these events (sorted, each once, at most {@link LIVE_MAX_EVENTS}). */
export function liveOddsUrl(eventIds: readonly number[], lastId: string | null = null): string | null {
  const ids = [...new Set(eventIds.filter((id) => Number.isSafeInteger(id) && id > 0))].sort((a, b) => a - b).slice(0, LIVE_MAX_EVENTS);
  if (ids.length === 0) return null;
  const query = new URLSearchParams({ events: ids.join(',') });
  if (lastId !== null) query.set('last_id', lastId);
  return `/live/sportsbook?${query.toString()}`;
}

/** `event` with `change` applied (the same object when it is another event). */
export function applyChange(event: SportEvent, change: OddsChange, format: OddsFormat): SportEvent {
  if (event.id !== change.event_id) return event;
  const states = new Map(change.markets.map((market) => [market.id, market.state]));
  const prices = new Map(change.selections.map((selection) => [selection.id, selection]));
  return {
    ...event,
    status: change.status,
    clock: change.clock,
    home_score: change.home_score,
    away_score: change.away_score,
    markets: event.markets.map((market) => {
      const state = states.get(market.id) ?? market.state;
      if (state === market.state && !market.selections.some((selection) => prices.has(selection.id))) return market;
      return {
        ...market,
        state,
        selections: market.selections.map((selection) => {
          const moved = prices.get(selection.id);
          if (!moved) return selection;
          return { ...selection, odds: moved.odds, odds_display: moved.display?.[format] ?? moved.odds };
        }),
      };
    }),
  };
}

function isFormat(value: unknown): value is OddsFormat {
  return value === 'decimal' || value === 'fractional' || value === 'american';
}

/** Patches every cached event list and event page the change concerns. */
export function patchCache(client: QueryClient, change: OddsChange): void {
  for (const [key, data] of client.getQueriesData<SportEvent>({ queryKey: [...catalogKeys.all, 'event', change.event_id] })) {
    const format = key[3];
    if (data && isFormat(format)) client.setQueryData(key, applyChange(data, change, format));
  }
  for (const [key, data] of client.getQueriesData<Events>({ queryKey: [...catalogKeys.all, 'events'] })) {
    const format = key[3];
    if (!data || !isFormat(format) || !data.items.some((event) => event.id === change.event_id)) continue;
    client.setQueryData(key, { ...data, items: data.items.map((event) => applyChange(event, change, format)) });
  }
}

function parseChange(message: MessageEvent<unknown>): OddsChange | null {
  if (typeof message.data !== 'string') return null;
  try {
    const data = JSON.parse(message.data) as Partial<OddsChange> | null;
    if (!data || typeof data.event_id !== 'number' || !Array.isArray(data.selections) || !Array.isArray(data.markets)) return null;
    return data as OddsChange;
  } catch {
    return null;
  }
}

/**
 * Follows the events `eventIds` live while the page is shown: cached events and the slip take
 * each change as it comes. One connection for the whole list; it moves when the list changes.
 */
export function useLiveOdds(eventIds: readonly number[]): void {
  const client = useQueryClient();
  const url = liveOddsUrl(eventIds);
  useEffect(() => {
    if (url === null || !('EventSource' in globalThis)) return undefined;
    let source: EventSource | null = null;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let failures = 0;
    let lastId: string | null = null;

    const onOdds = (message: MessageEvent<unknown>) => {
      if (message.lastEventId) lastId = message.lastEventId;
      const change = parseChange(message);
      if (!change) return;
      patchCache(client, change);
      applyPrices(new Map(change.selections.map((selection) => [selection.id, selection.offered ? selection.odds : null])));
    };
    const onReset = () => {
      lastId = null;
      void client.invalidateQueries({ queryKey: catalogKeys.all });
    };
    const onOpen = () => {
      failures = 0;
    };
    const close = () => {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      if (source) {
        source.removeEventListener('odds', onOdds);
        source.removeEventListener('reset', onReset);
        source.removeEventListener('open', onOpen);
        source.removeEventListener('error', onError);
        source.close();
      }
      source = null;
    };
    const open = () => {
      close();
      const address = lastId === null ? url : `${url}&${new URLSearchParams({ last_id: lastId }).toString()}`;
      source = new EventSource(address, { withCredentials: true });
      source.addEventListener('odds', onOdds);
      source.addEventListener('reset', onReset);
      source.addEventListener('open', onOpen);
      source.addEventListener('error', onError);
    };
    // Our own backoff rather than the browser's fixed retry: it also covers a refusal (429),
    // after which EventSource would not try again by itself.
    function onError() {
      close();
      const pause = Math.min(LIVE_MAX_BACKOFF_MS, LIVE_BACKOFF_MS * 2 ** failures);
      failures += 1;
      timer = setTimeout(open, pause);
    }
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') close();
      else if (source === null) {
        failures = 0;
        open();
      }
    };

    if (document.visibilityState !== 'hidden') open();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      close();
    };
    // `url` stands for the ids: the same list in another array opens nothing new.
  }, [url, client]);
}
