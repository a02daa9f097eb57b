import { queryOptions, useQuery } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { apiGet, apiPost, type RequestOptions } from '@/lib/api/client';
import type { AcceptOdds, OddsFormat } from '../odds';

// `bets.place`, `bets.get`, `bets.cashOut`. Amounts are decimal texts in major units.

export interface Amount {
  amount: string;
  currency: string;
}

export type SelectionResult = 'open' | 'won' | 'lost' | 'void' | 'half_won' | 'half_lost' | 'dead_heat';
export type BetStatus = 'open' | 'won' | 'lost' | 'void' | 'cashed_out';

export interface BetSelection {
  selection_id: number;
  event_id: number;
  /** "Home v Away". */
  event: string;
  event_status: string;
  /** The market's key (1x2, totals:2.5, …). */
  market: string;
  /** The selection's key (home, draw, over, 2:1, …). */
  selection: string;
  odds: string;
  odds_display: string;
  result: SelectionResult;
}

export interface Bet {
  id: number;
  kind: 'single' | 'accumulator' | 'system';
  system: string | null;
  lines: number;
  stake_per_line: Amount;
  stake: Amount;
  potential: Amount;
  payout: Amount;
  funds: 'main' | 'betting_bonus';
  /** The betting bonus (free bet or odds boost) the bet used. */
  betting_bonus_id: number | null;
  /** An odds boost's extra winnings paid so far. */
  boost_paid: Amount | null;
  status: BetStatus;
  /** The cash-out offer now; null when there is none. */
  cash_out: Amount | null;
  created_at: number;
  settled_at: number | null;
  selections: BetSelection[];
}

export interface Bets {
  total: number;
  items: Bet[];
}

export type BetsFilter = 'open' | 'settled' | 'all';
export const BETS_FILTERS: readonly BetsFilter[] = ['open', 'settled', 'all'];
export const BETS_PAGE_SIZE = 50;

export interface PlaceRequest {
  kind: 'single' | 'accumulator' | 'system';
  system?: string | undefined;
  selections: readonly number[];
  /** The decimal prices the slip showed, one per selection. */
  odds: readonly string[];
  /** Per line, major units. */
  stake: string;
  accept_odds: AcceptOdds;
  funds: 'main' | 'betting_bonus';
  /** The player's active betting bonus this bet uses. */
  betting_bonus_id?: number | undefined;
  request_id: string;
}

export const betKeys = {
  all: ['bets'] as const,
  list: (status: BetsFilter, format: OddsFormat, uid: number) => [...betKeys.all, 'list', status, format, uid] as const,
};

export function getBets(status: BetsFilter, format: OddsFormat, options?: RequestOptions): Promise<Bets> {
  return apiGet<Bets>('bets.get', { status, offset: 0, count: BETS_PAGE_SIZE, odds_format: format }, options);
}

export function placeBet(request: PlaceRequest): Promise<Bet> {
  return apiPost<Bet>('bets.place', {
    kind: request.kind,
    system: request.system,
    selections: request.selections.join(','),
    odds: request.odds.join(','),
    stake: request.stake,
    accept_odds: request.accept_odds,
    funds: request.funds,
    betting_bonus_id: request.betting_bonus_id,
    request_id: request.request_id,
  });
}

/** `bets.cashOut` at the offer the player saw (`amount`); a lower offer now is refused with the new one. */
export function cashOut(betId: number, amount: string): Promise<Bet> {
  return apiPost<Bet>('bets.cashOut', { bet_id: betId, amount });
}

/** How often the list of open bets asks again: their cash-out offers follow the prices. */
export const OPEN_BETS_REFRESH_MS = 5000;

// Open bets' cash-out offers follow the prices, so the list of open bets is polled.
export function betsQueryOptions(status: BetsFilter, format: OddsFormat, uid: number) {
  return queryOptions({
    queryKey: betKeys.list(status, format, uid),
    queryFn: ({ signal }) => getBets(status, format, { signal }),
    enabled: uid > 0,
    refetchInterval: status === 'settled' ? false : OPEN_BETS_REFRESH_MS,
  });
}

export function useBets(status: BetsFilter, format: OddsFormat) {
  const uid = useAccount()?.uid ?? 0;
  return useQuery(betsQueryOptions(status, format, uid));
}
