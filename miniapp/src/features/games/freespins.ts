import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { apiGet } from '@/lib/api/client';
import { gameKeys } from './api';

/** A free-spin pack (`freespins.get` item). */
export interface FreespinPack {
  id: number;
  game: { sysname: string; name: string };
  remaining_count: number;
  total_count: number;
  /** Decimal, in `currency`. */
  bet: string;
  currency: string;
  win_account: 'main' | 'bonus';
  won: string;
  status: 'active' | 'used' | 'expired';
  /** Unix seconds. */
  expires_at: number;
}

/** What a game's packs add up to: spins left, their bet, and the soonest expiry. */
export interface GameSpins {
  remaining: number;
  bet: string;
  currency: string;
  expiresAt: number;
}

/** SPEC §7: `freespins.get` with status active and count 99. */
export const FREESPINS_COUNT = 99;

export function freespinsQueryOptions() {
  return queryOptions({
    queryKey: [...gameKeys.all, 'freespins'] as const,
    queryFn: ({ signal }) =>
      apiGet<{ total: number; items: FreespinPack[] }>('freespins.get', { status: 'active', count: String(FREESPINS_COUNT) }, { signal }),
  });
}

/** The active packs' spins per game sysname (packs with nothing left are left out). */
export function spinsByGame(packs: readonly FreespinPack[]): Map<string, GameSpins> {
  const byGame = new Map<string, GameSpins>();
  for (const pack of packs) {
    if (pack.status !== 'active' || pack.remaining_count <= 0) continue;
    const current = byGame.get(pack.game.sysname);
    if (current) {
      current.remaining += pack.remaining_count;
      current.expiresAt = Math.min(current.expiresAt, pack.expires_at);
    } else {
      byGame.set(pack.game.sysname, { remaining: pack.remaining_count, bet: pack.bet, currency: pack.currency, expiresAt: pack.expires_at });
    }
  }
  return byGame;
}

/** The signed-in player's free spins per game (SPEC §6: loaded only when authenticated). */
export function useFreespins(): Map<string, GameSpins> {
  const account = useAccount();
  const { data } = useQuery({ ...freespinsQueryOptions(), enabled: Boolean(account), select: (answer) => spinsByGame(answer.items) });
  return account && data ? data : EMPTY;
}

const EMPTY = new Map<string, GameSpins>();
