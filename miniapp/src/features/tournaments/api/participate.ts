import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { apiPost } from '@/lib/api/client';
import { leaderboardKeys } from './get-leaderboard';
import { tournamentKeys, type Tournament } from './get-tournaments';

export interface Participation {
  joined: true;
  rank: number | null;
  score: number;
}

/** `tournaments.participate` (tournament_id): the signed-in player joins an opt-in tournament. */
export function participate(id: number): Promise<Participation> {
  return apiPost<Participation>('tournaments.participate', { tournament_id: String(id) });
}

/** Joins, then shows the player as taking part and reloads the boards and lists that count them. */
export function useParticipate(id: number) {
  const uid = useAccount()?.uid ?? 0;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => participate(id),
    onSuccess: (answer) => {
      queryClient.setQueryData<Tournament>(tournamentKeys.detail(id, uid), (current) =>
        current ? { ...current, joined: true, my: answer.rank === null ? current.my : { rank: answer.rank, score: answer.score } } : current,
      );
      void queryClient.invalidateQueries({ queryKey: tournamentKeys.all });
      void queryClient.invalidateQueries({ queryKey: leaderboardKeys.all });
    },
  });
}
