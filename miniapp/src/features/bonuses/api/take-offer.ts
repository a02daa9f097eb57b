import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/features/account';
import { apiPost } from '@/lib/api/client';
import { bonusKeys, type Bonus } from './get-bonuses';
import type { Offer } from './get-offers';

/** What taking an offer or applying a promo code gives: the offer and the player's new bonus. */
export interface Taken {
  offer: Offer;
  bonus: Bonus;
}

/** SPEC §7 `campaigns.takepromotions` (offer_id). */
export function takeOffer(offerId: number): Promise<Taken> {
  return apiPost<Taken>('campaigns.takepromotions', { offer_id: offerId });
}

export function useTakeOffer(onSuccess?: (taken: Taken) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: takeOffer,
    onSuccess: (taken) => {
      void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      onSuccess?.(taken);
    },
  });
}
