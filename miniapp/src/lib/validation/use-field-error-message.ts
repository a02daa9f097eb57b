import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMessage } from './messages';
import type { FieldError } from './use-form';

/** Turns a field error into text in the page's language. */
export function useFieldErrorMessage(): (error: FieldError | undefined) => string | undefined {
  const { t } = useTranslation();
  return useCallback(
    (error) => {
      if (!error) return undefined;
      if (error.source === 'rule') {
        const params = error.failure.params ?? {};
        return formatMessage(t(`validation.${error.failure.message}`), params);
      }
      return formatMessage(t(`serverErrors.${error.code}`), error.params);
    },
    [t],
  );
}
