import { apiPost } from '@/lib/api/client';
import type { TrackingParam } from '@/lib/entry-params';
import type { AccountInfo } from '@/features/account';

export type RegisterInput = (
  | { email: string; phone?: never; phone_country_code?: never }
  | { email?: never; phone: string; phone_country_code: string }
) & {
  password: string;
  currency: string;
  terms: boolean;
  fakename?: string;
  promo_code?: string;
  tracking?: Partial<Record<TrackingParam, string>>;
};

export function register({ tracking = {}, ...fields }: RegisterInput): Promise<AccountInfo> {
  const { track_id, publisher_id, goal_id, goal_entry_id, link_id } = tracking;
  return apiPost<AccountInfo>(
    'auth.register',
    { ...fields, track_id, publisher_id, goal_id, goal_entry_id, link_id },
    { textFields: ['password', 'currency'] },
  );
}
