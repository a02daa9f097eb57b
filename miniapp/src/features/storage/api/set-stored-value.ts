import { apiPost, type RequestOptions } from '@/lib/api/client';
import type { PlayerStorageKey } from './get-stored-value';

/** SPEC §7 `storage.set` (POST key, value) for the signed-in player. */
export async function setStoredValue(key: PlayerStorageKey, value: string, options?: RequestOptions): Promise<void> {
  await apiPost<number>('storage.set', { key, value }, { ...options, textFields: ['value'] });
}
