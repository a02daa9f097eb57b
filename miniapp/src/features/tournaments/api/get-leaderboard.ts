import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { liveUrl, useLive } from '@/lib/live';
import type { Prize } from './get-tournaments';

// `leaderboard.get` and its live twin, the `leaderboard` events of /live/tournaments/{id}: both
// answer the board as the viewer's cookie sees it (`me` is null for guests and non-participants).

export interface LeaderboardRow {
  rank: number;
  name: string;
  score: number;
  is_me: boolean;
}

export interface Leaderboard {
  tournament_id: number;
  /** Participants. */
  total: number;
  items: LeaderboardRow[];
  me: { rank: number | null; score: number; gap_to_prize: number | null; prize: Prize | null } | null;
  /** Grows with every change of the board. */
  version: number;
}

export const LEADERBOARD_SIZE = 10;

export const leaderboardKeys = {
  all: ['leaderboard'] as const,
  board: (id: number, uid: number) => [...leaderboardKeys.all, id, uid] as const,
};

export function getLeaderboard(id: number, options?: RequestOptions): Promise<Leaderboard> {
  return apiGet<Leaderboard>('leaderboard.get', { tournament_id: id, count: LEADERBOARD_SIZE }, options);
}

export function leaderboardQueryOptions(id: number, uid: number) {
  return queryOptions({
    queryKey: leaderboardKeys.board(id, uid),
    queryFn: ({ signal }) => getLeaderboard(id, { signal }),
  });
}

/** Keeps the newer board: a pushed board older than the one shown is dropped. */
export function newerBoard(current: Leaderboard | undefined, pushed: Leaderboard): Leaderboard {
  return current && current.version > pushed.version ? current : pushed;
}

export function useLeaderboard(id: number) {
  const uid = useAccount()?.uid ?? 0;
  return useQuery(leaderboardQueryOptions(id, uid));
}

/**
 * Streams the tournament's board into the leaderboard query while mounted. Mount it keyed by
 * the player, so signing in or out opens a stream for the new cookie.
 */
export function useLiveLeaderboard(id: number) {
  const uid = useAccount()?.uid ?? 0;
  const locale = useLocale();
  const queryClient = useQueryClient();
  useLive(liveUrl(`tournaments/${String(id)}`, locale), 'leaderboard', (data) => {
    const board = data as Leaderboard;
    if (board.tournament_id !== id) return;
    queryClient.setQueryData<Leaderboard>(leaderboardKeys.board(id, uid), (current) => newerBoard(current, board));
  });
}
