import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';

/** How the player's wins are listed: their nickname, their login partly masked, or not at all. */
export type WinnerDisplay = 'nickname' | 'masked' | 'hidden';
export const WINNER_DISPLAYS: readonly WinnerDisplay[] = ['nickname', 'masked', 'hidden'];

export interface WinnerPrivacy {
  display: WinnerDisplay;
}

export const privacyKeys = {
  privacy: (uid: number) => ['winners', 'privacy', uid] as const,
};

/** `winners.getPrivacy` (signed in). */
export function getPrivacy(options?: RequestOptions): Promise<WinnerPrivacy> {
  return apiGet<WinnerPrivacy>('winners.getPrivacy', {}, options);
}

/** `winners.setPrivacy` (display). */
export function setPrivacy(display: WinnerDisplay): Promise<WinnerPrivacy> {
  return apiPost<WinnerPrivacy>('winners.setPrivacy', { display });
}

/** The signed-in player's choice; never asked for a guest. */
export function usePrivacy() {
  const uid = useAccount()?.uid ?? 0;
  return useQuery({
    queryKey: privacyKeys.privacy(uid),
    queryFn: ({ signal }) => getPrivacy({ signal }),
    enabled: uid > 0,
  });
}

export function useSetPrivacy() {
  const uid = useAccount()?.uid ?? 0;
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setPrivacy,
    onSuccess: (answer) => {
      queryClient.setQueryData(privacyKeys.privacy(uid), answer);
    },
  });
}
