import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { ApiError } from '@/lib/api/client';
import { rules, useFieldErrorMessage, useForm } from '@/lib/validation';
import { getAccountInfo, type AccountInfo } from '@/features/account';
import { setCurrency } from '@/features/account';
import styles from './auth-forms.module.css';
import { TermsLabel } from './terms-label';
import { useErrorText } from './use-error-text';

const COMPLETION_RULES = {
  currency: (value: string) => rules.required(value),
  terms: (value: boolean) => rules.checkbox(value),
};

export interface SocialRegistrationFormProps {
  currencies: readonly string[];
  defaultCurrency: string;
  onCompleted: (account: AccountInfo) => void;
}

/** SPEC §4: an account whose registration is not completed chooses its currency and accepts the terms. */
export function SocialRegistrationForm({ currencies, defaultCurrency, onCompleted }: SocialRegistrationFormProps) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const initialValues: { currency: string; terms: boolean } = { currency: defaultCurrency, terms: false };
  const form = useForm({ initialValues, rules: COMPLETION_RULES });

  const submit = form.handleSubmit(async ({ currency, terms }) => {
    setFormError(null);
    try {
      await setCurrency(currency, terms);
      onCompleted(await getAccountInfo());
    } catch (error) {
      setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : []));
    }
  });

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.socialRegistration.title')}>
      <h2 className={styles.title}>{t('auth.socialRegistration.title')}</h2>
      <p className={styles.lead}>{t('auth.socialRegistration.lead')}</p>
      <SelectField
        label={t('auth.fields.currency')}
        name="currency"
        value={form.values.currency}
        options={currencies.map((code) => ({ value: code, label: code }))}
        onValueChange={(value) => {
          form.setValue('currency', value);
        }}
        error={message(form.errors.currency)}
      />
      <CheckboxField
        name="terms"
        checked={form.values.terms}
        onCheckedChange={(checked) => {
          form.setValue('terms', checked);
        }}
        error={message(form.errors.terms)}
      >
        <TermsLabel />
      </CheckboxField>
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.socialRegistration.submit')}
      </Button>
    </form>
  );
}
