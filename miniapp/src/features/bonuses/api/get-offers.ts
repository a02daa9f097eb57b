import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { bonusKeys, type OfferTrigger } from './get-bonuses';

export type OfferAction = 'registration' | 'deposit' | 'promo_code' | 'manual';
export type RewardKind = 'deposit_match' | 'fixed' | 'freespins' | 'freebet' | 'odds_boost';

/** SPEC §3 Offer (campaign); amounts in the player's currency (the default one for guests). */
export interface Offer {
  id: number;
  sysname: string;
  trigger: {
    action: OfferAction;
    params: { exclude_methods: string[]; min_deposit: string | null; deposit_number: number | null };
    /** SPEC §6: deposit offers are shown to guests or to players satisfying them. */
    user_satisfies_params: boolean;
  };
  description: {
    title: string;
    text: string;
    /** The reward in a few words ("100% up to 500.00 USD + 50 free spins"). */
    reward: string;
    terms: string;
    image: string | null;
  };
  /** Content slugs of the related promotions. */
  promotions: string[];
  reward: {
    kind: RewardKind;
    percent: number | null;
    max_amount: string | null;
    amount: string | null;
    freespins: { game: string; count: number } | null;
    wager_multiplier: number;
  };
  starts_at: number | null;
  ends_at: number | null;
  /** The player already has a bonus of it. */
  taken: boolean;
  bonus_id: number | null;
}

export interface OffersPage {
  total: number;
  items: Offer[];
}

/** SPEC §7 `campaigns.getoffers` (offset 0, SPEC §9); `trigger` narrows the list. */
export function getOffers(trigger?: OfferTrigger, options?: RequestOptions): Promise<OffersPage> {
  return apiGet<OffersPage>('campaigns.getoffers', { offset: 0, trigger }, options);
}

export function offersQueryOptions(trigger?: OfferTrigger) {
  return queryOptions({
    queryKey: bonusKeys.offers(trigger ?? 'all'),
    queryFn: ({ signal }) => getOffers(trigger, { signal }),
  });
}

export function useOffers(trigger?: OfferTrigger) {
  return useQuery(offersQueryOptions(trigger));
}

/** An offer by its id or its sysname, as `/offers/{id}` and `/promotions/{id}` name it. */
export function findOffer(offers: readonly Offer[], id: string): Offer | undefined {
  const wanted = id.trim().toLowerCase();
  return (
    offers.find((offer) => String(offer.id) === wanted) ??
    offers.find((offer) => offer.sysname.toLowerCase() === wanted) ??
    offers.find((offer) => offer.promotions.some((slug) => slug.toLowerCase() === wanted))
  );
}

/** SPEC §6: the deposit offers a player may choose — all for a guest, those satisfied for a player. */
export function choosableDepositOffers(offers: readonly Offer[], isGuest: boolean): Offer[] {
  return offers.filter((offer) => isGuest || offer.trigger.user_satisfies_params);
}
