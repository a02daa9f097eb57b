import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api/client';
import { rules, useFieldErrorMessage, useForm } from '@/lib/validation';
import { getAccountInfo, type AccountInfo } from '@/features/account';
import { requestRestoreCode, restorePassword } from '../api/restore';
import styles from './auth-forms.module.css';
import { useErrorText } from './use-error-text';

const LOGIN_RULES = { login: (value: string) => rules.text(value) };

function RequestStep({ onSent }: { onSent: (login: string) => void }) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ initialValues: { login: '' }, rules: LOGIN_RULES });

  const submit = form.handleSubmit(async ({ login }) => {
    setFormError(null);
    try {
      await requestRestoreCode(login);
      onSent(login.trim());
    } catch (error) {
      setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : []));
    }
  });

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.restore.title')}>
      <p className={styles.lead}>{t('auth.restore.lead')}</p>
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
      />
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.restore.send')}
      </Button>
    </form>
  );
}

function ResetStep({ login, onSignedIn }: { login: string; onSignedIn: (account: AccountInfo) => void }) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { code: '', password: '', password_repeat: '' },
    rules: {
      code: (value: string) => rules.confirmationCode(value),
      password: (value: string) => rules.password(value, { spaceWord: t('validation.space') }),
      password_repeat: (value: string, all: { password: string }) => rules.required(value) ?? rules.sameAs(value, all.password),
    },
  });

  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await restorePassword({ login, ...values });
      onSignedIn(await getAccountInfo());
    } catch (error) {
      const params = { password: { min: rules.PASSWORD_MIN, max: rules.PASSWORD_MAX } };
      setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors, params) : []));
    }
  });

  const field = (name: 'code' | 'password' | 'password_repeat') => ({
    name,
    value: form.values[name],
    onValueChange: (value: string) => {
      form.setValue(name, value);
    },
    onBlur: () => {
      form.blur(name);
    },
    error: message(form.errors[name]),
  });

  return (
    <form className={styles.form} noValidate onSubmit={submit} aria-label={t('auth.restore.title')}>
      <p className={styles.lead} role="status">
        {t('auth.restore.sent', { login })}
      </p>
      <TextField
        {...field('code')}
        label={t('auth.fields.code')}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        data-autofocus
      />
      <TextField {...field('password')} label={t('auth.fields.newPassword')} type="password" autoComplete="new-password" />
      <TextField {...field('password_repeat')} label={t('auth.fields.passwordRepeat')} type="password" autoComplete="new-password" />
      <FormAlert message={formError} />
      <Button type="submit" fullWidth disabled={form.submitting}>
        {t('auth.restore.submit')}
      </Button>
    </form>
  );
}

export interface RestoreFormProps {
  onSignedIn: (account: AccountInfo) => void;
  onBack: () => void;
}

/** SPEC §7 auth.restore in two steps: the login gets a code, then the code sets a new password. */
export function RestoreForm({ onSignedIn, onBack }: RestoreFormProps) {
  const { t } = useTranslation();
  const [login, setLogin] = useState<string | null>(null);
  return (
    <div className={styles.form}>
      {login === null ? <RequestStep onSent={setLogin} /> : <ResetStep login={login} onSignedIn={onSignedIn} />}
      <button type="button" className={styles.link} onClick={onBack}>
        {t('auth.back')}
      </button>
    </div>
  );
}
