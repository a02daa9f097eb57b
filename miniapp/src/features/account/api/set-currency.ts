import { apiPost } from '@/lib/api/client';

/** Completes a social sign-up: the account currency and the accepted terms. */
export function setCurrency(currency: string, terms: boolean): Promise<1> {
  return apiPost<1>('account.setCurrency', { currency, terms }, { textFields: ['currency'] });
}
