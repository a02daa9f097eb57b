import type { TFunction } from 'i18next';
import { ApiError } from '@/lib/api/client';
import { formatMessage } from '@/lib/validation';

/** The SPEC §8 cashier errors a player can meet, each with its own message. */
export const CASHIER_ERRORS = [
  'BillingServiceErrorException',
  'BillingTransactionDeclinedException',
  'BillingUnavailableException',
  'BillingDepositLimitExceededException',
  'WithdrawalDeclinedException',
  'WithdrawalLimitsExceededException',
  'WithdrawalLimitsPeriodExceededException',
  'UserNeedConfirmContactException',
  'UserNeedProfileDataException',
  'UserNeedDepositException',
  'KycUserProfileException',
  'KycWithdrawalException',
  'SumsubVerificationRequiredException',
  'RequisitesOnVerificationException',
  'RequisitesValidationRequiredException',
  'RequisitesFraudulentException',
] as const;
export type CashierError = (typeof CASHIER_ERRORS)[number];

export function isCashierError(type: string): type is CashierError {
  return (CASHIER_ERRORS as readonly string[]).includes(type);
}

/**
 * Cashier config "exception buttons": the way out of an error that needs the player to do
 * something first — confirm a contact, complete the profile, verify identity.
 */
export const EXCEPTION_BUTTONS: Partial<Record<CashierError, { label: 'confirmContact' | 'completeProfile' | 'verifyIdentity'; to: string }>> = {
  UserNeedConfirmContactException: { label: 'confirmContact', to: '/profile/settings?from=withdraw' },
  UserNeedProfileDataException: { label: 'completeProfile', to: '/profile/settings?from=withdraw' },
  KycWithdrawalException: { label: 'verifyIdentity', to: '/profile/verification' },
  KycUserProfileException: { label: 'verifyIdentity', to: '/profile/verification' },
  SumsubVerificationRequiredException: { label: 'verifyIdentity', to: '/profile/verification' },
};

/** The values error_data carries into the message ($$min$$, $$max$$, $$available_amount$$). */
function dataParams(error: ApiError): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.data)) {
    if (typeof value === 'string' || typeof value === 'number') params[key] = String(value);
  }
  return params;
}

/** A field's message from the server's first code for it, with the code's params. */
export function serverFieldText(t: TFunction, error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const code = error.fieldErrors[field]?.[0];
  if (!code) return undefined;
  const key = `serverErrors.${code}` as const;
  const text = t(key as 'serverErrors.INVALID', { defaultValue: t('serverErrors.INVALID') });
  return formatMessage(text, dataParams(error));
}

/** The server's word on one requisite (`error_data.requisite` names it; the code is on `requisites`). */
export function serverRequisiteText(t: TFunction, error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError) || error.data.requisite !== field) return undefined;
  return serverFieldText(t, error, 'requisites');
}

/** The form-level message of a failed cashier call. */
export function cashierErrorText(t: TFunction, error: unknown): string | null {
  if (!(error instanceof ApiError)) return t('errors.unknown');
  if (error.status === 0) return t('errors.network');
  if (isCashierError(error.type)) return formatMessage(t(`cashier.errors.${error.type}`), dataParams(error));
  if (Object.keys(error.fieldErrors).length > 0) return null;
  return error.message || t('errors.unknown');
}
