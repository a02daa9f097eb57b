import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api/client';
import { formatMessage } from '@/lib/validation';

/** The message of the server's first code for `field`, with its params from error_data. */
export function fieldError(t: TFunction, error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const code = error.fieldErrors[field]?.[0];
  if (!code) return undefined;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.data)) {
    if (typeof value === 'string' || typeof value === 'number') params[key] = String(value);
  }
  return formatMessage(t(`serverErrors.${code}` as 'serverErrors.INVALID', { defaultValue: t('serverErrors.INVALID') }), params);
}

/** A failed save's form-level message when no field shows it. */
export function formError(t: TFunction, error: unknown, fields: readonly string[]): string | null {
  if (!error) return null;
  if (!(error instanceof ApiError)) return t('profile.saveFailed');
  if (error.status === 0) return t('errors.network');
  const unplaced = Object.keys(error.fieldErrors).filter((field) => !fields.includes(field));
  if (Object.keys(error.fieldErrors).length > 0 && unplaced.length === 0) return null;
  const first = unplaced[0] ? error.fieldErrors[unplaced[0]]?.[0] : undefined;
  if (first) return t(`serverErrors.${first}` as 'serverErrors.INVALID', { defaultValue: t('serverErrors.INVALID') });
  return error.message || t('profile.saveFailed');
}

/** SPEC §5: profile save, subscription change, contact add, send confirmation and confirm must answer 1. */
export function expectOne(value: unknown): 1 {
  if (value !== 1) throw new Error('the server did not answer 1');
  return 1;
}
