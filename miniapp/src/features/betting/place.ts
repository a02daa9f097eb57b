import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountKeys } from '@/features/account';
import { bettingBonusKeys } from '@/features/bonuses';
import { ApiError } from '@/lib/api/client';
import { newRequestId, PendingRequestIds } from '@/lib/request-id';
import { haptic } from '@/lib/telegram';
import { betKeys, placeBet, type Bet, type PlaceRequest } from './api/bets';
import { catalogKeys } from './api/get-catalog';
import { applyPrices, removePlaced, slipStore, type SlipState } from './slip-store';

// Placing the slip. Singles are one bet per selection (the server takes one selection per
// single), placed one after another; an accumulator or a system is one bet. A refusal for moved
// or suspended prices carries every selection's price now (`error_data.odds`): the slip takes
// them, so what the player sees is what an "accept and place" sends, and nothing is placed at a
// price the player did not see.

/** Why the server would not take the slip as it was. */
export type Refusal = 'odds_changed' | 'suspended';

export interface PlaceOutcome {
  placed: Bet[];
  refusal: Refusal | null;
}

/** What a bets.place request asks, without its idempotency key. */
type PlaceContent = Omit<PlaceRequest, 'request_id'>;

/** The betting bonus the player chose for the slip: a free bet sets the stake and its funds. */
export interface SlipBonus {
  id: number;
  kind: 'freebet' | 'odds_boost';
  /** A free bet's stake, decimal. */
  amount: string | null;
}

/** Whether a betting bonus can go with the slip: it is for one single or one accumulator. */
export function bonusFits(state: Pick<SlipState, 'kind' | 'entries'>): boolean {
  return state.entries.length > 0 && (state.kind === 'accumulator' || (state.kind === 'single' && state.entries.length === 1));
}

/** The bets.place requests a slip makes, in order (each with its id from `pendingIds`). */
export function slipRequests(state: SlipState, bonus: SlipBonus | null = null): PlaceContent[] {
  const withBonus = bonus !== null && bonusFits(state);
  const freebet = withBonus && bonus.kind === 'freebet';
  const common = {
    stake: freebet ? (bonus.amount ?? '') : state.stake.trim().replace(',', '.'),
    accept_odds: state.accept,
    funds: freebet ? ('betting_bonus' as const) : ('main' as const),
    ...(withBonus ? { betting_bonus_id: bonus.id } : {}),
  };
  if (state.kind === 'single') {
    return state.entries.map((entry) => ({
      ...common,
      kind: 'single',
      selections: [entry.selectionId],
      odds: [entry.odds],
    }));
  }
  return [
    {
      ...common,
      kind: state.kind,
      system: state.kind === 'system' ? (state.system ?? undefined) : undefined,
      selections: state.entries.map((entry) => entry.selectionId),
      odds: state.entries.map((entry) => entry.odds),
    },
  ];
}

/** The prices a refusal carries, or null when the error is not a refusal for prices. */
export function refusalOf(error: unknown): { refusal: Refusal; prices: Map<number, string | null> } | null {
  if (!(error instanceof ApiError)) return null;
  const codes = error.fieldErrors.selections ?? [];
  const refusal: Refusal | null = codes.includes('MARKET_SUSPENDED') ? 'suspended' : codes.includes('ODDS_CHANGED') ? 'odds_changed' : null;
  if (!refusal) return null;
  const prices = new Map<number, string | null>();
  const odds = error.data.odds;
  if (typeof odds === 'object' && odds !== null) {
    for (const [id, price] of Object.entries(odds)) prices.set(Number(id), typeof price === 'string' ? price : null);
  }
  return { refusal, prices };
}

/** The ids of the slip's bets not placed yet (new prices, an accepted change, make a new request). */
const pendingIds = new PendingRequestIds();

/**
 * Places the slip as it is now. Each bet placed leaves the slip at once, so a refusal half-way
 * through a run of singles leaves only the unplaced ones; a refusal for prices is an outcome
 * (the slip now shows the new prices), any other error is thrown.
 */
export async function placeSlip(newId: () => string = newRequestId, bonus: SlipBonus | null = null): Promise<PlaceOutcome> {
  const placed: Bet[] = [];
  for (const content of slipRequests(slipStore.get(), bonus)) {
    const request: PlaceRequest = { ...content, request_id: pendingIds.idFor(content, newId) };
    try {
      placed.push(await placeBet(request));
      pendingIds.done(content);
      removePlaced(request.selections);
    } catch (error) {
      const refused = refusalOf(error);
      if (!refused) throw error;
      applyPrices(refused.prices);
      return { placed, refusal: refused.refusal };
    }
  }
  return { placed, refusal: null };
}

/** placeSlip as a mutation: the balance, the bet lists and the prices are asked again after it. */
export function usePlaceSlip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bonus: SlipBonus | null) => placeSlip(newRequestId, bonus),
    onSettled: (outcome) => {
      if (outcome && outcome.placed.length > 0) haptic('bet');
      else haptic('error');
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      void queryClient.invalidateQueries({ queryKey: betKeys.all });
      void queryClient.invalidateQueries({ queryKey: catalogKeys.all });
      void queryClient.invalidateQueries({ queryKey: bettingBonusKeys.all });
    },
  });
}
