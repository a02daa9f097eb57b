import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api/client';
import { rules, useFieldErrorMessage, useForm } from '@/lib/validation';
import type { AccountInfo } from '@/features/account';
import { login } from '../api/login';
import styles from './auth-forms.module.css';
import { useErrorText } from './use-error-text';

export interface TwoFactorChallenge {
  login: string;
  password: string;
  /** Seconds before another code may be asked for. */
  resendTime: number;
}

/** SPEC §4: a login refused for two-factor (or a resend wait) moves to the code step, keeping login and password. */
export function twoFactorChallengeOf(error: unknown, loginValue: string, password: string): TwoFactorChallenge | null {
  if (!(error instanceof ApiError)) return null;
  const codes = error.fieldErrors.code ?? [];
  if (!codes.includes('TWO_FACTOR_REQUIRED') && !codes.includes('RESEND_TIME')) return null;
  return { login: loginValue, password, resendTime: error.numberData('resend_time') ?? 0 };
}

const LOGIN_RULES = {
  login: (value: string) => rules.text(value),
  password: (value: string) => rules.required(value),
};

export interface LoginFormProps {
  onSignedIn: (account: AccountInfo) => void;
  onTwoFactor: (challenge: TwoFactorChallenge) => void;
  onForgotPassword: () => void;
}

export function LoginForm({ onSignedIn, onTwoFactor, onForgotPassword }: LoginFormProps) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ initialValues: { login: '', password: '' }, rules: LOGIN_RULES });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      onSignedIn(await login(values));
    } catch (error) {
      const challenge = twoFactorChallengeOf(error, values.login, values.password);
      if (challenge) {
        onTwoFactor(challenge);
        return;
      }
      const unplaced = error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : [];
      setFormError(errorText(error, unplaced));
    }
  });

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.login.title')}>
      <TextField
        label={t('auth.fields.login')}
        name="login"
        autoComplete="username"
        data-autofocus
        value={form.values.login}
        onValueChange={(value) => {
          form.setValue('login', value);
        }}
        onBlur={() => {
          form.blur('login');
        }}
        error={message(form.errors.login)}
        hint={t('auth.fields.loginHint')}
      />
      <TextField
        label={t('auth.fields.password')}
        name="password"
        type="password"
        autoComplete="current-password"
        value={form.values.password}
        onValueChange={(value) => {
          form.setValue('password', value);
        }}
        onBlur={() => {
          form.blur('password');
        }}
        error={message(form.errors.password)}
      />
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.login.submit')}
      </Button>
      <button type="button" className={styles.link} onClick={onForgotPassword}>
        {t('auth.login.forgot')}
      </button>
    </form>
  );
}
