import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api/client';
import { i18n } from '@/lib/i18n';
import { formatMessage } from '@/lib/validation';

/** The values error_data carries into a message ($$max$$, $$amount$$). */
function dataParams(error: ApiError): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.data)) {
    if (typeof value === 'string' || typeof value === 'number') params[key] = String(value);
  }
  return params;
}

/** The message of a code the server gave a field; unknown codes read as INVALID. */
function codeText(t: TFunction, error: ApiError, code: string): string {
  // Asked first: a key missing from the messages throws while developing, even with a default.
  const key = i18n.exists(`serverErrors.${code}`) ? (`serverErrors.${code}` as 'serverErrors.INVALID') : 'serverErrors.INVALID';
  return formatMessage(t(key), dataParams(error));
}

/** What is said before anything else: too many tries, or no answer at all. */
function transportText(t: TFunction, error: ApiError): string | null {
  if (error.type === 'TooManyRequestsException') {
    return formatMessage(t('errors.tooManyRequests'), { seconds: error.numberData('retry_after') ?? 60 });
  }
  if (error.status === 0) return t('errors.network');
  return null;
}

/**
 * The message of a refused bonus change or offer take: the code of `field` (bonus_id, offer_id),
 * the active-bonus limit, or the server's words.
 */
export function bonusErrorText(t: TFunction, error: unknown, field: 'bonus_id' | 'offer_id'): string {
  if (!(error instanceof ApiError)) return t('errors.unknown');
  const transport = transportText(t, error);
  if (transport) return transport;
  if (error.type === 'BonusActiveLimitException') return formatMessage(t('bonuses.errors.activeLimit'), dataParams(error));
  const code = error.fieldErrors[field]?.[0];
  if (code) return codeText(t, error, code);
  return error.message || t('errors.unknown');
}

/** SPEC §5: promo code errors map by the first code in error_data.promo_code, falling back to INVALID. */
export function promoCodeErrorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    const transport = transportText(t, error);
    if (transport) return transport;
    const code = error.fieldErrors.promo_code?.[0];
    if (code) return codeText(t, error, code);
    if (error.type === 'BonusActiveLimitException') return formatMessage(t('bonuses.errors.activeLimit'), dataParams(error));
  }
  return t('serverErrors.INVALID');
}

/** SPEC §4 "Promo code not found fires an event". */
export function isPromoCodeNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.fieldErrors.promo_code?.[0] === 'NOT_FOUND';
}

/** The withdrawal refused until the player agrees to lose their wagering bonuses (data: bonuses, amount). */
export function burnConfirmationOf(error: unknown): { bonuses: number; amount: string } | null {
  if (!(error instanceof ApiError) || error.type !== 'BonusBurnConfirmationRequiredException') return null;
  const amount = error.data.amount;
  return {
    bonuses: error.numberData('bonuses') ?? 1,
    amount: typeof amount === 'string' || typeof amount === 'number' ? String(amount) : '0',
  };
}
