import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useAccount } from '@/features/account';
import { ApiError, apiGet, apiPost, type RequestOptions } from '@/lib/api/client';
import type { Amount, BetsFilter } from './bets';

// External sportsbook providers (issue 20): `sportsbook.getSports` names them (`providers`),
// `sportsbook.launch` opens one's frame for the signed-in player, `sportsbook.getProviderBets`
// lists the player's bets there. The provider itself moves the money through the server's
// signed wallet protocol; the client only shows the frame and the bets.

export interface ProviderLaunch {
  provider: string;
  /** The frame's address, the launch token in it. */
  url: string;
  token: string;
  currency: string;
  /** Unix seconds: the token's end for placing bets. */
  expires_at: number;
  /** Seconds from the answer to the token's end (the frame is relaunched before it). */
  expires_in: number;
}

export type ProviderSelectionResult = 'open' | 'won' | 'lost' | 'void' | 'half_won' | 'half_lost';
export type ProviderBetStatus = 'open' | 'won' | 'lost' | 'void' | 'cancelled';

export interface ProviderSelection {
  /** The provider's selection id. */
  id: string;
  event: string;
  market: string;
  selection: string;
  /** Decimal ("2.50"). */
  odds: string;
  result: ProviderSelectionResult;
  /** A dead heat's factor ("1/2"), when there was one. */
  dead_heat: string | null;
}

export interface ProviderBet {
  provider: string;
  /** The provider's bet id. */
  bet_id: string;
  kind: 'single' | 'accumulator' | 'system';
  system: string | null;
  stake: Amount;
  potential: Amount;
  payout: Amount;
  status: ProviderBetStatus;
  created_at: number;
  settled_at: number | null;
  selections: ProviderSelection[];
}

export interface ProviderBets {
  total: number;
  items: ProviderBet[];
}

/** Provider bets per page ("more" loads the next). */
export const PROVIDER_BETS_PAGE_SIZE = 20;

export const providerKeys = {
  all: ['sportsbook-providers'] as const,
  launch: (provider: string, uid: number, currency: string) => [...providerKeys.all, 'launch', provider, uid, currency] as const,
  bets: (provider: string, status: BetsFilter, uid: number) => [...providerKeys.all, 'bets', provider, status, uid] as const,
};

export function launchProvider(provider: string): Promise<ProviderLaunch> {
  return apiPost<ProviderLaunch>('sportsbook.launch', { provider });
}

export function getProviderBets(provider: string, status: BetsFilter, offset: number, options?: RequestOptions): Promise<ProviderBets> {
  return apiGet<ProviderBets>('sportsbook.getProviderBets', { provider, status, offset, count: PROVIDER_BETS_PAGE_SIZE }, options);
}

/** Offset of the next page of provider bets, or undefined once every bet is loaded. */
export function nextProviderBetsOffset(last: ProviderBets, pages: readonly ProviderBets[]): number | undefined {
  const loaded = pages.reduce((n, page) => n + page.items.length, 0);
  return loaded < last.total && last.items.length === PROVIDER_BETS_PAGE_SIZE ? loaded : undefined;
}

/**
 * One launch per provider and player while the page is open: a new launch is a new session (and
 * reloads the frame), so it is not asked again on focus or by age; `refetch` is the retry, and
 * the frame's relaunch shortly before the token ends (`provider-book.tsx`).
 * The key holds the account's currency: a player who completes the registration (chooses a
 * currency) is launched again.
 */
export function useProviderLaunch(provider: string) {
  const account = useAccount();
  const uid = account?.uid ?? 0;
  return useQuery({
    queryKey: providerKeys.launch(provider, uid, account?.balance_main.currency ?? ''),
    queryFn: () => launchProvider(provider),
    enabled: uid > 0,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useProviderBets(provider: string, status: BetsFilter) {
  const uid = useAccount()?.uid ?? 0;
  return useInfiniteQuery({
    queryKey: providerKeys.bets(provider, status, uid),
    queryFn: ({ pageParam, signal }) => getProviderBets(provider, status, pageParam, { signal }),
    initialPageParam: 0,
    getNextPageParam: nextProviderBetsOffset,
    enabled: uid > 0,
  });
}

/** The launch refused because the player has not chosen a currency yet (a social sign-up not completed). */
export function needsCurrency(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.type !== 'UserNeedProfileDataException') return false;
  const missing = error.data.missing;
  return Array.isArray(missing) && missing.includes('currency');
}
