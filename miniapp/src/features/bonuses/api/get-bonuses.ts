import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type RequestOptions } from '@/lib/api/client';

export const BONUS_STATUSES = ['offered', 'active', 'wagering', 'completed', 'expired', 'forfeited', 'cancelled'] as const;
export type BonusStatus = (typeof BONUS_STATUSES)[number];

/** The bonuses still running: the server's default list. */
export const CURRENT_STATUSES: readonly BonusStatus[] = ['offered', 'active', 'wagering'];
/** The finished ones: the history. */
export const FINISHED_STATUSES: readonly BonusStatus[] = ['completed', 'expired', 'forfeited', 'cancelled'];

/** A free-spin pack that comes with a bonus. */
export interface BonusSpins {
  game: string;
  remaining_count: number;
  total_count: number;
  bet: string;
}

/** SPEC §7 `bonuses.get` item: amounts are decimal strings in `currency`, times unix seconds. */
export interface Bonus {
  id: number;
  status: BonusStatus;
  campaign_id: number | null;
  /** In the request's language. */
  title: string;
  description: string;
  currency: string;
  /** Bonus money credited ("0.00" before a match bonus's deposit). */
  amount: string;
  balance: string;
  wager_target: string;
  wagered: string;
  /** 0 to 100. */
  progress: number;
  max_bet: string | null;
  max_conversion: string | null;
  /** Game sysnames it is for; empty for every game. */
  games: string[];
  freespins: BonusSpins | null;
  /** Active and waiting for a deposit of at least `min_deposit`. */
  awaiting_deposit: boolean;
  min_deposit: string | null;
  /** Only while offered, active or wagering. */
  expires_at: number | null;
  created_at: number;
  finished_at: number | null;
  can_activate: boolean;
  can_deactivate: boolean;
  /** Removing a wagering bonus forfeits its balance. */
  can_remove: boolean;
}

export interface BonusesPage {
  total: number;
  items: Bonus[];
}

export const bonusKeys = {
  all: ['bonuses'] as const,
  list: (statuses: readonly BonusStatus[]) => [...bonusKeys.all, 'list', statuses.join(',')] as const,
  offers: (trigger: OfferTrigger | 'all') => [...bonusKeys.all, 'offers', trigger] as const,
};

/** What `campaigns.getoffers` can be narrowed to (the deposit page asks for `deposit`). */
export type OfferTrigger = 'deposit' | 'registration' | 'promo_code';

/** The most bonuses one page of the profile shows (the server allows 1 to 100). */
export const BONUSES_PAGE_SIZE = 50;

/** SPEC §7 `bonuses.get` (statuses, offset, count) — the signed-in player's only, newest first. */
export function getBonuses(statuses: readonly BonusStatus[], offset = 0, options?: RequestOptions): Promise<BonusesPage> {
  return apiGet<BonusesPage>('bonuses.get', { statuses: statuses.join(','), offset, count: BONUSES_PAGE_SIZE }, options);
}

export function bonusesQueryOptions(statuses: readonly BonusStatus[]) {
  return queryOptions({
    queryKey: bonusKeys.list(statuses),
    queryFn: ({ signal }) => getBonuses(statuses, 0, { signal }),
  });
}

export function useBonuses(statuses: readonly BonusStatus[]) {
  return useQuery(bonusesQueryOptions(statuses));
}
