import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiGet, type RequestOptions } from '@/lib/api/client';
import { STORAGE_KEYS, writeStored } from '@/lib/storage';

/** DESIGN "Money on the wire". */
export interface Money {
  amount: string;
  currency: string;
}

/** SPEC §3 "Account info"; a guest has uid 0. `reg_time` is unix seconds. */
export interface AccountInfo {
  uid: number;
  id: number;
  reg_time: number;
  login: string;
  fakename: string | null;
  is_subscribed: boolean;
  currency: string | null;
  balance_main: Money;
  balance_bonus: Money;
  balance_betting_bonus: Money;
  balance_fun: Money;
  is_on_verification: boolean;
  is_verified: boolean;
  is_kyc_block_enabled: boolean;
  is_registration_completed: boolean;
  country_code: string | null;
  locale: string;
  two_factor_auth: boolean;
  /** The time-out or self-exclusion in force (`until`: unix seconds); absent or null if none. */
  exclusion?: { kind: 'time_out' | 'self_exclusion'; until: number } | null;
  /** Identity verification: none, pending, verified, retry or rejected. */
  kyc_status?: string;
}

export const accountKeys = {
  all: ['account'] as const,
  info: () => [...accountKeys.all, 'info'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
};

export function isAuthenticated(account: AccountInfo | undefined): account is AccountInfo {
  return account !== undefined && account.uid > 0;
}

/** SPEC §3: balances are mirrored into local storage. */
export function mirrorBalances(account: AccountInfo): void {
  const balances = isAuthenticated(account)
    ? JSON.stringify({
        main: account.balance_main,
        bonus: account.balance_bonus,
        betting_bonus: account.balance_betting_bonus,
        fun: account.balance_fun,
      })
    : null;
  writeStored(STORAGE_KEYS.balances, balances);
}

export async function getAccountInfo(options?: RequestOptions): Promise<AccountInfo> {
  const account = await apiGet<AccountInfo>('account.getInfo', undefined, options);
  mirrorBalances(account);
  return account;
}

export function accountInfoQueryOptions() {
  return queryOptions({
    queryKey: accountKeys.info(),
    queryFn: ({ signal }) => getAccountInfo({ signal }),
  });
}

export function useAccountInfo() {
  return useQuery(accountInfoQueryOptions());
}

/** The signed-in account, or undefined for a guest or while unknown. */
export function useAccount(): AccountInfo | undefined {
  const { data } = useAccountInfo();
  return isAuthenticated(data) ? data : undefined;
}
