import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/features/account';
import { apiPost } from '@/lib/api/client';
import { bonusKeys } from './get-bonuses';
import type { Offer } from './get-offers';
import type { Taken } from './take-offer';

/** SPEC §7 `campaigns.checkPromocode` (promo_code): the offer a code gives, without using it. */
export function checkPromoCode(promoCode: string): Promise<Offer> {
  return apiPost<Offer>('campaigns.checkPromocode', { promo_code: promoCode.trim() }, { textFields: ['promo_code'] });
}

/** SPEC §7 `campaigns.activateOffer` (promo_code, fields): applies the code. */
export function activatePromoCode(promoCode: string): Promise<Taken> {
  return apiPost<Taken>('campaigns.activateOffer', { promo_code: promoCode.trim() }, { textFields: ['promo_code'] });
}

export function useCheckPromoCode() {
  return useMutation({ mutationFn: checkPromoCode });
}

export function useActivatePromoCode(onSuccess?: (taken: Taken) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: activatePromoCode,
    onSuccess: (taken) => {
      void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      onSuccess?.(taken);
    },
  });
}
