import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Money } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { liveUrl, useLive } from '@/lib/live';
import { jackpotWinnersKeys } from './get-jackpot-winners';

// `Jackpots.get` (every pool, or one by `id`, always as an array) and its live twin, the
// `jackpots` events of /live/jackpots that carry every pool about once a second.

export interface Pool {
  id: number;
  title: string;
  description: string;
  image: string | null;
  status: 'active' | 'paused' | 'closed';
  amount: Money;
  amount_minor: number;
  currency: string;
  seed: Money;
  trigger: 'must_drop' | 'hidden';
  must_drop_before: Money | null;
  /** Hex SHA-256 of `{trigger}:{salt}` for a hidden trigger, published before the cycle. */
  trigger_hash: string | null;
  /** Of every qualifying bet, e.g. `1.50`. */
  contribution_percent: string;
  /** Empty: every game feeds the pool. */
  game_sysnames: string[];
  /** The pool's current cycle, from 1; each drop starts the next. */
  cycle: number;
  updated_at_ms: number;
  last_win: { name: string; amount: Money; at: number } | null;
}

export const jackpotKeys = {
  all: ['jackpots'] as const,
  list: () => [...jackpotKeys.all, 'list'] as const,
  detail: (id: number) => [...jackpotKeys.all, 'detail', id] as const,
};

export function getJackpots(options?: RequestOptions): Promise<Pool[]> {
  return apiGet<Pool[]>('Jackpots.get', {}, options);
}

export function getJackpot(id: number, options?: RequestOptions): Promise<Pool[]> {
  return apiGet<Pool[]>('Jackpots.get', { id }, options);
}

export function jackpotsQueryOptions() {
  return queryOptions({ queryKey: jackpotKeys.list(), queryFn: ({ signal }) => getJackpots({ signal }) });
}

export function jackpotQueryOptions(id: number) {
  return queryOptions({
    queryKey: jackpotKeys.detail(id),
    queryFn: ({ signal }) => getJackpot(id, { signal }),
    enabled: Number.isSafeInteger(id) && id > 0,
  });
}

export function useJackpots() {
  return useQuery(jackpotsQueryOptions());
}

export function useJackpot(id: number) {
  const query = useQuery(jackpotQueryOptions(id));
  return { ...query, pool: query.data?.find((pool) => pool.id === id) };
}

/** The pushed pools, except where the one already shown is fresher (an answer that crossed an event). */
export function newerPools(current: readonly Pool[] | undefined, pushed: readonly Pool[]): Pool[] {
  const shown = new Map((current ?? []).map((pool) => [pool.id, pool]));
  return pushed.map((pool) => {
    const known = shown.get(pool.id);
    return known && known.updated_at_ms > pool.updated_at_ms ? known : pool;
  });
}

/**
 * While mounted, streams the pools into the list and into every pool already shown on its own;
 * a pool that dropped (a new cycle) reloads the winners.
 */
export function useLiveJackpots(): void {
  const locale = useLocale();
  const queryClient = useQueryClient();
  useLive(liveUrl('jackpots', locale), 'jackpots', (data) => {
    if (!Array.isArray(data)) return;
    const pushed = data as Pool[];
    const shown = [jackpotKeys.list(), ...pushed.map((pool) => jackpotKeys.detail(pool.id))].flatMap(
      (key) => queryClient.getQueryData<Pool[]>(key) ?? [],
    );
    const dropped = pushed.some((pool) => shown.some((known) => known.id === pool.id && known.cycle !== pool.cycle));
    queryClient.setQueryData<Pool[]>(jackpotKeys.list(), (current) => newerPools(current, pushed));
    for (const pool of pushed) {
      queryClient.setQueryData<Pool[]>(jackpotKeys.detail(pool.id), (current) => (current ? newerPools(current, [pool]) : current));
    }
    if (dropped) void queryClient.invalidateQueries({ queryKey: jackpotWinnersKeys.all });
  });
}
