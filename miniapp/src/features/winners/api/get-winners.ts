import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Money } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { liveUrl, useLive } from '@/lib/live';

// `winners.get` (the newest big wins, by kind) and its live twin, the `winner` events of
// /live/winners: one event per new big win, added on top of the feeds it belongs to.

export type WinnerKind = 'game' | 'jackpot' | 'tournament';
export type WinnersFilter = 'all' | WinnerKind;
export const WINNERS_FILTERS: readonly WinnersFilter[] = ['all', 'game', 'jackpot', 'tournament'];

export interface Winner {
  id: number;
  kind: WinnerKind;
  name: string;
  game: { sysname: string; title: string } | null;
  amount: Money;
  /** Win over stake, e.g. `125.00`. */
  multiplier: string | null;
  at: number;
  tournament_id: number | null;
  pool_id: number | null;
}

export interface WinnersPage {
  items: Winner[];
  total: number;
}

export const WINNERS_PAGE_SIZE = 20;
/** A feed keeps at most this many wins as new ones arrive on top. */
export const WINNERS_FEED_LIMIT = 50;

export const winnersKeys = {
  all: ['winners'] as const,
  feed: (kind: WinnersFilter) => [...winnersKeys.all, 'feed', kind] as const,
};

export function getWinners(kind: WinnersFilter, options?: RequestOptions): Promise<WinnersPage> {
  return apiGet<WinnersPage>('winners.get', { kind, offset: 0, count: WINNERS_PAGE_SIZE }, options);
}

export function winnersQueryOptions(kind: WinnersFilter) {
  return queryOptions({ queryKey: winnersKeys.feed(kind), queryFn: ({ signal }) => getWinners(kind, { signal }) });
}

export function useWinners(kind: WinnersFilter) {
  return useQuery(winnersQueryOptions(kind));
}

/** The feed with `winner` on top, once (a win already listed is not added again). */
export function withWinner(feed: WinnersPage, winner: Winner): WinnersPage {
  if (feed.items.some((item) => item.id === winner.id)) return feed;
  return { items: [winner, ...feed.items].slice(0, WINNERS_FEED_LIMIT), total: feed.total + 1 };
}

/** While mounted, adds each new big win on top of every loaded feed it belongs to. */
export function useLiveWinners(): void {
  const locale = useLocale();
  const queryClient = useQueryClient();
  useLive(liveUrl('winners', locale), 'winner', (data) => {
    const winner = data as Winner;
    for (const kind of WINNERS_FILTERS) {
      if (kind !== 'all' && kind !== winner.kind) continue;
      queryClient.setQueryData<WinnersPage>(winnersKeys.feed(kind), (feed) => (feed ? withWinner(feed, winner) : feed));
    }
  });
}
