import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/api/client';
import type { FieldErrorCode } from '@/lib/api/errors.gen';
import { formatMessage } from '@/lib/validation';

/** The form-level text of a failed call: too many tries, no network, codes no field shows, or the server's words. */
export function useErrorText(): (error: unknown, unplaced?: readonly FieldErrorCode[]) => string | null {
  const { t } = useTranslation();
  return useCallback(
    (error, unplaced = []) => {
      if (!(error instanceof ApiError)) return t('errors.unknown');
      if (error.type === 'TooManyRequestsException') {
        return formatMessage(t('errors.tooManyRequests'), { seconds: error.numberData('retry_after') ?? 60 });
      }
      if (error.status === 0) return t('errors.network');
      const [code] = unplaced;
      if (code) return t(`serverErrors.${code}`);
      // Field errors were shown on their fields: nothing more to say.
      if (Object.keys(error.fieldErrors).length > 0) return null;
      return error.message || t('errors.unknown');
    },
    [t],
  );
}
