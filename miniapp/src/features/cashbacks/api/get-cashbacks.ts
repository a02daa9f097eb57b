import type { Money } from '@/features/account';
import { apiGet, type RequestOptions } from '@/lib/api/client';

export type CashbackStatus = 'pending' | 'active' | 'paid_out' | 'removed' | 'expired' | 'rejected';

/** SPEC §3 Cashback (times in unix seconds). */
export interface Cashback {
  id: number;
  status: CashbackStatus;
  /** real: to the main balance; bonus: a wagering bonus. */
  pays: 'real' | 'bonus';
  /** In the request's language. */
  description: string;
  amount: Money;
  receiving_expired_at: number | null;
  paid_out_at: number | null;
  end_date: number;
  created_at: number;
}

export interface CashbacksPage {
  total: number;
  items: Cashback[];
}

export interface CashbacksQuery {
  offset?: number;
  count?: number;
  sort?: 'created_at' | 'end_date';
  order?: 'asc' | 'desc';
  statuses?: readonly CashbackStatus[];
}

/** SPEC §7 `cashbacks.get` (offset, count, sort, order, statuses) — the signed-in player's only. */
export function getCashbacks({ statuses, ...query }: CashbacksQuery = {}, options?: RequestOptions): Promise<CashbacksPage> {
  return apiGet<CashbacksPage>('cashbacks.get', { ...query, statuses: statuses?.join(',') }, options);
}
