import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { FormAlert } from '@/components/ui/form-alert';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { useSiteConfig, type AuthType } from '@/config/site-config';
import { ApiError } from '@/lib/api/client';
import type { TrackingParam } from '@/lib/entry-params';
import { rules, useFieldErrorMessage, useForm, type MessageParams } from '@/lib/validation';
import type { AccountInfo } from '@/features/account';
import { register } from '../api/register';
import styles from './auth-forms.module.css';
import { TermsLabel } from './terms-label';
import { useErrorText } from './use-error-text';

/** Bounds the server's MIN_LENGTH / MAX_LENGTH codes refer to, for their messages. */
const SERVER_PARAMS: Record<string, MessageParams> = {
  password: { min: rules.PASSWORD_MIN, max: rules.PASSWORD_MAX },
  fakename: { min: rules.FAKENAME_MIN, max: 32 },
  promo_code: { max: 128 },
  track_id: { max: 128 },
};

// A type alias (not an interface) so it fits the form's string-keyed values.
// eslint-disable-next-line @typescript-eslint/consistent-type-definitions
type RegistrationValues = {
  email: string;
  phone: string;
  phone_country_code: string;
  password: string;
  currency: string;
  fakename: string;
  promo_code: string;
  terms: boolean;
};

export interface RegistrationFormProps {
  currencies: readonly string[];
  defaultCurrency: string;
  promoCode: string | null;
  tracking: Partial<Record<TrackingParam, string>>;
  onSignedIn: (account: AccountInfo) => void;
}

export function RegistrationForm({ currencies, defaultCurrency, promoCode, tracking, onSignedIn }: RegistrationFormProps) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const { auth, validator } = useSiteConfig();
  const [authType, setAuthType] = useState<AuthType>(auth.authTypes[0] ?? 'email');
  const [formError, setFormError] = useState<string | null>(null);

  const formRules = useMemo(
    () => ({
      email: (value: string) => (authType === 'email' ? rules.email(value) : null),
      phone: (value: string, all: { phone_country_code: string | boolean }) =>
        authType === 'phone' ? rules.phone(value, rules.isPhoneNumberValid(String(all.phone_country_code), value)) : null,
      phone_country_code: (value: string) => (authType === 'phone' ? rules.required(value) : null),
      password: (value: string) => rules.password(value, { spaceWord: t('validation.space') }),
      currency: (value: string) => rules.required(value),
      fakename: (value: string) => (value === '' ? null : rules.fakename(value)),
      promo_code: () => rules.promo(),
      terms: (value: boolean) => rules.checkbox(value),
    }),
    [authType, t],
  );

  const initialValues: RegistrationValues = {
    email: '',
    phone: '',
    phone_country_code: '1',
    password: '',
    currency: currencies.includes(defaultCurrency) ? defaultCurrency : (currencies[0] ?? defaultCurrency),
    fakename: '',
    promo_code: promoCode ?? '',
    terms: false,
  };
  const form = useForm({ initialValues, rules: formRules });
  const { values } = form;
  const phoneMask = validator.phoneMasks[values.phone_country_code];

  const submit = form.handleSubmit(async (all) => {
    setFormError(null);
    const common = {
      password: all.password,
      currency: all.currency,
      terms: all.terms,
      fakename: all.fakename.trim(),
      promo_code: all.promo_code.trim(),
      tracking,
    };
    try {
      const account = await register(
        authType === 'email'
          ? { ...common, email: all.email.trim() }
          : { ...common, phone: all.phone, phone_country_code: all.phone_country_code },
      );
      onSignedIn(account);
    } catch (error) {
      const unplaced = error instanceof ApiError ? form.setServerErrors(error.fieldErrors, SERVER_PARAMS) : [];
      setFormError(errorText(error, unplaced));
    }
  });

  const field = <K extends 'email' | 'phone' | 'phone_country_code' | 'password' | 'fakename' | 'promo_code'>(name: K) => ({
    name,
    value: values[name],
    onValueChange: (value: string) => {
      form.setValue(name, value);
    },
    onBlur: () => {
      form.blur(name);
    },
    error: message(form.errors[name]),
  });

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.registration.title')}>
      {auth.authTypes.length > 1 && (
        <div className={styles.segmented} role="radiogroup" aria-label={t('auth.registration.loginType')}>
          {auth.authTypes.map((type) => (
            <button
              key={type}
              type="button"
              role="radio"
              aria-checked={authType === type}
              className={styles.segment}
              onClick={() => {
                setAuthType(type);
              }}
            >
              {t(`auth.registration.by.${type}`)}
            </button>
          ))}
        </div>
      )}
      {authType === 'email' ? (
        <TextField {...field('email')} label={t('auth.fields.email')} type="email" autoComplete="email" data-autofocus />
      ) : (
        <div className={styles.phoneRow}>
          <TextField
            {...field('phone_country_code')}
            label={t('auth.fields.countryCode')}
            inputMode="numeric"
            autoComplete="tel-country-code"
            adornment="+"
            mask="###"
            className={styles.countryCode}
          />
          <TextField
            {...field('phone')}
            label={t('auth.fields.phone')}
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            mask={phoneMask}
            data-autofocus
          />
        </div>
      )}
      <TextField {...field('password')} label={t('auth.fields.password')} type="password" autoComplete="new-password" />
      {auth.registration.currency && currencies.length > 1 && (
        <SelectField
          label={t('auth.fields.currency')}
          name="currency"
          value={values.currency}
          options={currencies.map((code) => ({ value: code, label: code }))}
          onValueChange={(value) => {
            form.setValue('currency', value);
          }}
          error={message(form.errors.currency)}
        />
      )}
      {auth.registration.fakename && (
        <TextField {...field('fakename')} label={t('auth.fields.fakename')} autoComplete="nickname" hint={t('auth.fields.optional')} />
      )}
      {auth.registration.promoCode && (
        <TextField {...field('promo_code')} label={t('auth.fields.promoCode')} autoComplete="off" hint={t('auth.fields.optional')} />
      )}
      <CheckboxField
        name="terms"
        checked={values.terms}
        onCheckedChange={(checked) => {
          form.setValue('terms', checked);
        }}
        error={message(form.errors.terms)}
      >
        <TermsLabel />
      </CheckboxField>
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.registration.submit')}
      </Button>
    </form>
  );
}
