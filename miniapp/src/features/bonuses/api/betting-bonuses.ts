import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/features/account';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';
import { bonusKeys } from './get-bonuses';

// SPEC §7 `BettingBonuses.*`: the sportsbook's bonuses — free bets (the stake is the house's:
// a win pays the winnings only) and odds boosts (extra winnings on one bet, capped). One is
// active at a time; the bet slip offers it.

export const BETTING_BONUS_STATUSES = ['offered', 'active', 'used', 'expired', 'forfeited', 'cancelled'] as const;
export type BettingBonusStatus = (typeof BETTING_BONUS_STATUSES)[number];
export const CURRENT_BETTING_STATUSES: readonly BettingBonusStatus[] = ['offered', 'active'];
export const FINISHED_BETTING_STATUSES: readonly BettingBonusStatus[] = ['used', 'expired', 'forfeited', 'cancelled'];

/** `BettingBonuses.get` item: amounts decimal strings in `currency`, times unix seconds. */
export interface BettingBonus {
  id: number;
  kind: 'freebet' | 'odds_boost';
  status: BettingBonusStatus;
  campaign_id: number | null;
  title: string;
  description: string;
  currency: string;
  /** A free bet's stake. */
  amount: string | null;
  /** An odds boost's boost, in percent of the winnings. */
  boost_percent: number | null;
  /** An odds boost's largest extra winnings. */
  max_extra: string | null;
  awaiting_deposit: boolean;
  expires_at: number | null;
  created_at: number;
  activated_at: number | null;
  finished_at: number | null;
  can_activate: boolean;
  can_remove: boolean;
}

export interface BettingBonusesPage {
  total: number;
  items: BettingBonus[];
}

export interface BettingBonusActivated {
  bonus: BettingBonus;
  /** The dialog to open: `betting-bonus-activated`. */
  dialog: string;
}

export const bettingBonusKeys = {
  all: [...bonusKeys.all, 'betting'] as const,
  list: (statuses: readonly BettingBonusStatus[]) => [...bettingBonusKeys.all, statuses.join(',')] as const,
};

export function getBettingBonuses(statuses: readonly BettingBonusStatus[], options?: RequestOptions): Promise<BettingBonusesPage> {
  return apiGet<BettingBonusesPage>('BettingBonuses.get', { statuses: statuses.join(','), offset: 0, count: 50 }, options);
}

export function bettingBonusesQueryOptions(statuses: readonly BettingBonusStatus[]) {
  return queryOptions({
    queryKey: bettingBonusKeys.list(statuses),
    queryFn: ({ signal }) => getBettingBonuses(statuses, { signal }),
  });
}

export function useBettingBonuses(statuses: readonly BettingBonusStatus[], enabled = true) {
  return useQuery({ ...bettingBonusesQueryOptions(statuses), enabled });
}

/** The player's active betting bonus (the one the bet slip offers), if any. */
export function activeBettingBonus(page: BettingBonusesPage | undefined): BettingBonus | null {
  return page?.items.find((bonus) => bonus.status === 'active' && !bonus.awaiting_deposit) ?? null;
}

/** The active betting bonus, for the bet slip; nothing is asked for a guest. */
export function useActiveBettingBonus(signedIn: boolean): BettingBonus | null {
  return activeBettingBonus(useBettingBonuses(['active'], signedIn).data);
}

export function activateBettingBonus(bonusId: number): Promise<BettingBonusActivated> {
  return apiPost<BettingBonusActivated>('BettingBonuses.activate', { bonus_id: bonusId });
}

export function removeBettingBonus(bonusId: number): Promise<BettingBonus> {
  return apiPost<BettingBonus>('BettingBonuses.remove', { bonus_id: bonusId });
}

function useRefresh() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
    void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
  };
}

export function useActivateBettingBonus(onSuccess: (activated: BettingBonusActivated) => void) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: activateBettingBonus,
    onSuccess: (activated) => {
      refresh();
      onSuccess(activated);
    },
  });
}

export function useRemoveBettingBonus(onSuccess: (bonus: BettingBonus) => void) {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: removeBettingBonus,
    onSuccess: (bonus) => {
      refresh();
      onSuccess(bonus);
    },
  });
}
