import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api/client';
import { formatMessage, rules, useFieldErrorMessage, useForm } from '@/lib/validation';
import type { AccountInfo } from '@/features/account';
import { login } from '../api/login';
import styles from './auth-forms.module.css';
import { twoFactorChallengeOf, type TwoFactorChallenge } from './login-form';
import { useCountdown } from './use-countdown';
import { useErrorText } from './use-error-text';

const CODE_RULES = { code: (value: string) => rules.twoFactorCode(value) };

export interface TwoFactorFormProps {
  challenge: TwoFactorChallenge;
  onSignedIn: (account: AccountInfo) => void;
  onBack: () => void;
}

/** SPEC §4 second step: the code, with a resend countdown from the server's resend_time. */
export function TwoFactorForm({ challenge, onSignedIn, onBack }: TwoFactorFormProps) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const [resending, setResending] = useState(false);
  const [remaining, restart] = useCountdown(challenge.resendTime);
  const form = useForm({ initialValues: { code: '' }, rules: CODE_RULES });

  const submit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      onSignedIn(await login({ login: challenge.login, password: challenge.password, code: code.trim() }));
    } catch (error) {
      const unplaced = error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : [];
      setFormError(errorText(error, unplaced));
    }
  });

  const resend = async () => {
    setResending(true);
    setFormError(null);
    try {
      // Asking without a code sends a new one; the answer is the same two-factor refusal.
      onSignedIn(await login({ login: challenge.login, password: challenge.password }));
    } catch (error) {
      const next = twoFactorChallengeOf(error, challenge.login, challenge.password);
      if (next) restart(next.resendTime);
      else setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : []));
    } finally {
      setResending(false);
    }
  };

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.twoFactor.title')}>
      <p className={styles.lead}>{t('auth.twoFactor.lead')}</p>
      <TextField
        label={t('auth.fields.code')}
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        data-autofocus
        value={form.values.code}
        onValueChange={(value) => {
          form.setValue('code', value.replace(/\D/g, ''));
        }}
        onBlur={() => {
          form.blur('code');
        }}
        error={message(form.errors.code)}
      />
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.twoFactor.submit')}
      </Button>
      <div className={styles.row}>
        {remaining > 0 ? (
          <p className={styles.muted} role="timer" aria-live="off" data-testid="resend-countdown">
            {formatMessage(t('auth.twoFactor.resendIn'), { seconds: remaining })}
          </p>
        ) : (
          <button type="button" className={styles.link} disabled={resending} onClick={() => void resend()}>
            {t('auth.twoFactor.resend')}
          </button>
        )}
        <button type="button" className={styles.link} onClick={onBack}>
          {t('auth.back')}
        </button>
      </div>
    </form>
  );
}
