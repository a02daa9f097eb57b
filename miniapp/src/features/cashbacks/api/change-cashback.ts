import { apiPost } from '@/lib/api/client';
import type { Cashback } from './get-cashbacks';

/** SPEC §7 `cashbacks.payout` (cashback_id): pays it to the main balance; a repeat pays nothing more. */
export function payoutCashback(id: number): Promise<Cashback> {
  return apiPost<Cashback>('cashbacks.payout', { cashback_id: String(id) });
}

/** `cashbacks.remove` (cashback_id): declines an active cashback. */
export function removeCashback(id: number): Promise<Cashback> {
  return apiPost<Cashback>('cashbacks.remove', { cashback_id: String(id) });
}

export const cashbackKeys = {
  all: ['cashbacks'] as const,
  list: () => [...cashbackKeys.all, 'list'] as const,
};
