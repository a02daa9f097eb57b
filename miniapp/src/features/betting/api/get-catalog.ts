import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import type { OddsFormat } from '../odds';

// `sportsbook.getSports`, `sportsbook.getEvents`, `sportsbook.getEvent`: what /betting lists.
// Names come in the request's language, prices as decimal text plus the player's format.
//
// Prices move while a page is open: they arrive live (`./live-odds`, the server's
// /live/sportsbook stream), so asking again is only the safety net for a page whose stream is
// down (react-query drops the polling when the page closes, and pauses it in a hidden tab).

/** How often an open betting page asks for prices again besides the live stream. */
export const ODDS_REFRESH_MS = 30_000;

export interface League {
  name: string;
  upcoming: number;
  live: number;
}

export interface Sport {
  /** football, tennis, basketball or ice_hockey. */
  sport: string;
  name: string;
  upcoming: number;
  live: number;
  leagues: League[];
}

export interface Sports {
  total: number;
  items: Sport[];
  /** The external sportsbook providers' names (empty: the house book only). */
  providers: string[];
  /** Each provider's display name by name (what players see; the name when none is configured). */
  provider_titles: Record<string, string>;
}

export interface Selection {
  id: number;
  key: string;
  name: string;
  /** Decimal ("2.50"); null: not offered now. */
  odds: string | null;
  odds_display: string | null;
  result: string | null;
}

export type MarketState = 'active' | 'suspended' | 'settled' | 'cancelled';

export interface Market {
  id: number;
  key: string;
  name: string;
  state: MarketState;
  selections: Selection[];
}

export type EventStatus = 'scheduled' | 'live' | 'finished' | 'cancelled';

export interface SportEvent {
  id: number;
  sport: string;
  league: string;
  home: string;
  away: string;
  /** Unix seconds. */
  starts_at: number;
  status: EventStatus;
  clock: number | null;
  home_score: number | null;
  away_score: number | null;
  markets: Market[];
}

export interface Events {
  total: number;
  items: SportEvent[];
}

export type EventsTab = 'live' | 'upcoming';

export interface EventsFilter {
  sport: string | null;
  league: string | null;
  status: EventsTab;
}

export const EVENTS_PAGE_SIZE = 50;

export const catalogKeys = {
  all: ['sportsbook'] as const,
  sports: () => [...catalogKeys.all, 'sports'] as const,
  events: (filter: EventsFilter, format: OddsFormat) => [...catalogKeys.all, 'events', filter, format] as const,
  event: (id: number, format: OddsFormat) => [...catalogKeys.all, 'event', id, format] as const,
};

export function getSports(options?: RequestOptions): Promise<Sports> {
  return apiGet<Sports>('sportsbook.getSports', {}, options);
}

export function getEvents(filter: EventsFilter, format: OddsFormat, options?: RequestOptions): Promise<Events> {
  return apiGet<Events>(
    'sportsbook.getEvents',
    { sport: filter.sport, league: filter.league, status: filter.status, offset: 0, count: EVENTS_PAGE_SIZE, odds_format: format },
    options,
  );
}

export function getEvent(id: number, format: OddsFormat, options?: RequestOptions): Promise<SportEvent> {
  return apiGet<SportEvent>('sportsbook.getEvent', { event_id: id, odds_format: format }, options);
}

export function sportsQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.sports(),
    queryFn: ({ signal }) => getSports({ signal }),
    refetchInterval: ODDS_REFRESH_MS * 6,
  });
}

export function eventsQueryOptions(filter: EventsFilter, format: OddsFormat) {
  return queryOptions({
    queryKey: catalogKeys.events(filter, format),
    queryFn: ({ signal }) => getEvents(filter, format, { signal }),
    refetchInterval: ODDS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function eventQueryOptions(id: number, format: OddsFormat) {
  return queryOptions({
    queryKey: catalogKeys.event(id, format),
    queryFn: ({ signal }) => getEvent(id, format, { signal }),
    enabled: Number.isSafeInteger(id) && id > 0,
    refetchInterval: ODDS_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
}

export function useSports() {
  return useQuery(sportsQueryOptions());
}

/** A provider's display name from `sportsbook.getSports` (its name until that is known). */
export function useProviderTitle(): (provider: string) => string {
  const titles = useSports().data?.provider_titles;
  return (provider) => titles?.[provider] ?? provider;
}

export function useEvents(filter: EventsFilter, format: OddsFormat) {
  return useQuery(eventsQueryOptions(filter, format));
}

export function useEvent(id: number, format: OddsFormat) {
  return useQuery(eventQueryOptions(id, format));
}
