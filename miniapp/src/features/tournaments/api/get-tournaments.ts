import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAccount, type Money } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';

// `tournaments.get`: one tournament by `id`, or a page of them by `status`. Times are unix seconds.

export type TournamentStatus = 'upcoming' | 'running' | 'finished' | 'cancelled';
export type ListedStatus = Exclude<TournamentStatus, 'cancelled'>;
export const LISTED_STATUSES: readonly ListedStatus[] = ['running', 'upcoming', 'finished'];

/** What a score counts: stake and win in minor units of the first currency, multiplier in hundredths, points. */
export type Scoring = 'stake' | 'win' | 'multiplier' | 'points';

export interface Prize {
  rank_from: number;
  rank_to: number;
  kind: 'money' | 'bonus' | 'freespins' | 'points';
  amount: Money | null;
  points: number | null;
  freespins: { count: number; game: string; bet: Money } | null;
}

export interface Tournament {
  id: number;
  title: string;
  description: string;
  image: string | null;
  status: TournamentStatus;
  starts_at: number;
  ends_at: number;
  /** IANA zone the operator set the window in. */
  time_zone: string;
  scoring: Scoring;
  participation: 'opt_in' | 'automatic';
  min_bet: Money | null;
  currencies: string[];
  /** The qualifying games; empty means every game. */
  game_sysnames: string[];
  prizes: Prize[];
  prize_pool: Money | null;
  participants: number;
  joined: boolean;
  my: { rank: number; score: number } | null;
}

export interface TournamentList {
  items: Tournament[];
  total: number;
}

export const TOURNAMENTS_PAGE_SIZE = 20;

export const tournamentKeys = {
  all: ['tournaments'] as const,
  list: (status: ListedStatus, uid: number) => [...tournamentKeys.all, 'list', status, uid] as const,
  detail: (id: number, uid: number) => [...tournamentKeys.all, 'detail', id, uid] as const,
};

export function getTournaments(status: ListedStatus, options?: RequestOptions): Promise<TournamentList> {
  return apiGet<TournamentList>('tournaments.get', { status, offset: 0, count: TOURNAMENTS_PAGE_SIZE }, options);
}

export function getTournament(id: number, options?: RequestOptions): Promise<Tournament> {
  return apiGet<Tournament>('tournaments.get', { id }, options);
}

/** setTimeout's longest delay (~24.8 days); a longer one would fire at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * When to ask again so that a tournament starting or ending shows as such: a second after the
 * soonest start of an upcoming one or end of a running one (every 5 s while the server has not
 * caught up with a time already past); never once none is pending.
 */
export function untilNextPhase(tournaments: readonly Tournament[], nowMs: number): number | false {
  const next = tournaments
    .map((tournament) => (tournament.status === 'upcoming' ? tournament.starts_at : tournament.status === 'running' ? tournament.ends_at : null))
    .filter((at): at is number => at !== null)
    .reduce((soonest, at) => Math.min(soonest, at), Infinity);
  if (next === Infinity) return false;
  return Math.min(MAX_DELAY_MS, Math.max(5000, next * 1000 - nowMs + 1000));
}

// `joined` and `my` are the viewer's: the player's id is part of every key.

export function tournamentsQueryOptions(status: ListedStatus, uid: number) {
  return queryOptions({
    queryKey: tournamentKeys.list(status, uid),
    queryFn: ({ signal }) => getTournaments(status, { signal }),
    refetchInterval: (query) => untilNextPhase(query.state.data?.items ?? [], Date.now()),
  });
}

export function tournamentQueryOptions(id: number, uid: number) {
  return queryOptions({
    queryKey: tournamentKeys.detail(id, uid),
    queryFn: ({ signal }) => getTournament(id, { signal }),
    enabled: Number.isSafeInteger(id) && id > 0,
    refetchInterval: (query) => untilNextPhase(query.state.data ? [query.state.data] : [], Date.now()),
  });
}

export function useTournaments(status: ListedStatus) {
  const uid = useAccount()?.uid ?? 0;
  return useQuery(tournamentsQueryOptions(status, uid));
}

export function useTournament(id: number) {
  const uid = useAccount()?.uid ?? 0;
  return useQuery(tournamentQueryOptions(id, uid));
}
