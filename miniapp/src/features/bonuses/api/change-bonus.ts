import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/features/account';
import { apiPost } from '@/lib/api/client';
import { bonusKeys, type Bonus } from './get-bonuses';

export type BonusAction = 'activate' | 'deactivate' | 'remove';

/** SPEC §7 `bonuses.activate` / `bonuses.deactivate` / `bonuses.remove` (bonus_id): the bonus as it is now. */
export function changeBonus(action: BonusAction, bonusId: number): Promise<Bonus> {
  return apiPost<Bonus>(`bonuses.${action}`, { bonus_id: bonusId });
}

/** A change of one bonus; the lists, the offers and the balances reload after it. */
export function useChangeBonus(action: BonusAction, onSuccess?: (bonus: Bonus) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bonusId: number) => changeBonus(action, bonusId),
    onSuccess: (bonus) => {
      void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      onSuccess?.(bonus);
    },
  });
}
