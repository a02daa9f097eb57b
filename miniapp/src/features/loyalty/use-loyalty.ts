import { useQuery } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { getLoyaltyInfo, getPrograms, loyaltyKeys } from './api/loyalty';

/** The signed-in player's loyalty info (none for a guest). */
export function useLoyaltyInfo() {
  const account = useAccount();
  return useQuery({
    queryKey: [...loyaltyKeys.info(), account?.uid ?? 0],
    queryFn: ({ signal }) => getLoyaltyInfo({ signal }),
    enabled: account !== undefined,
  });
}

export function usePrograms() {
  const account = useAccount();
  return useQuery({
    queryKey: [...loyaltyKeys.programs(), account?.uid ?? 0],
    queryFn: ({ signal }) => getPrograms({ signal }),
    enabled: account !== undefined,
  });
}
