import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Money } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';

/** A drop of a pool. For hidden triggers, `trigger` (minor units) and `salt` are revealed after it. */
export interface JackpotWin {
  id: number;
  pool_id: number;
  pool_title: string;
  name: string;
  amount: Money;
  game: { sysname: string; title: string } | null;
  at: number;
  cycle: number;
  trigger: number | null;
  salt: string | null;
  trigger_hash: string | null;
}

export interface JackpotWins {
  items: JackpotWin[];
  total: number;
}

export const JACKPOT_WINNERS_PAGE_SIZE = 20;

export const jackpotWinnersKeys = {
  all: ['jackpots', 'winners'] as const,
  pool: (id: number) => [...jackpotWinnersKeys.all, id] as const,
};

/** `Jackpots.getWinners` (id, offset, count): the last drops of one pool. */
export function getJackpotWinners(id: number, options?: RequestOptions): Promise<JackpotWins> {
  return apiGet<JackpotWins>('Jackpots.getWinners', { id, offset: 0, count: JACKPOT_WINNERS_PAGE_SIZE }, options);
}

export function jackpotWinnersQueryOptions(id: number) {
  return queryOptions({
    queryKey: jackpotWinnersKeys.pool(id),
    queryFn: ({ signal }) => getJackpotWinners(id, { signal }),
  });
}

export function useJackpotWinners(id: number) {
  return useQuery(jackpotWinnersQueryOptions(id));
}
