import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { FormAlert } from '@/components/ui/form-alert';
import { Icon } from '@/components/ui/icon';
import { TextField } from '@/components/ui/text-field';
import { ApiError } from '@/lib/api/client';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';
import { showToast } from '@/lib/toasts/toast-store';
import { rules, useFieldErrorMessage, useForm } from '@/lib/validation';
import { accountKeys } from '@/features/account';
import { confirmContact, sendContactConfirmation } from '@/features/account';
import { useProfileInfo, type Contact } from '@/features/account';
import { confirmContactHintLeft } from '../hints';
import styles from './hints.module.css';
import { useTimeLeft } from './use-countdown';
import { useErrorText } from './use-error-text';

const CODE_RULES = { code: (value: string) => rules.confirmationCode(value) };

/** SPEC §2 "email confirmation" dialog: the code the contact received confirms it. */
export function ContactConfirmationForm({ contact, onConfirmed }: { contact: Contact; onConfirmed: () => void }) {
  const { t } = useTranslation();
  const message = useFieldErrorMessage();
  const errorText = useErrorText();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm({ initialValues: { code: '' }, rules: CODE_RULES });

  const submit = form.handleSubmit(async ({ code }) => {
    setFormError(null);
    try {
      await confirmContact(contact.contact, code);
      onConfirmed();
    } catch (error) {
      if (error instanceof ApiError && (error.fieldErrors.code ?? []).includes('CODE_INVALID')) {
        // SPEC §5: a wrong confirmation code shows the profile SMS code error.
        form.setError('code', { source: 'rule', failure: { message: 'smsCode' } });
        return;
      }
      setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : []));
    }
  });

  const resend = async () => {
    setFormError(null);
    try {
      await sendContactConfirmation(contact.contact);
      writeStored(STORAGE_KEYS.confirmSent, String(Date.now()));
      showToast({ type: 'success', message: t('hints.confirm.sent') });
    } catch (error) {
      setFormError(errorText(error, error instanceof ApiError ? form.setServerErrors(error.fieldErrors) : []));
    }
  };

  return (
    <form className={styles.dialog} noValidate onSubmit={submit} aria-label={t(`hints.confirm.title.${contact.type}`)}>
      <h2 className={styles.dialogTitle}>{t(`hints.confirm.title.${contact.type}`)}</h2>
      <p className={styles.dialogText}>{t('hints.confirm.lead', { contact: contact.contact })}</p>
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
        {t('hints.confirm.submit')}
      </Button>
      <Button variant="ghost" fullWidth onClick={() => void resend()}>
        {t('hints.confirm.resend')}
      </Button>
    </form>
  );
}

/** SPEC §4 confirm-contact hint: 5 days after registration while the login contact is unconfirmed. */
export function ConfirmContactHint({ regTime }: { regTime: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: profile } = useProfileInfo(true);
  const loginContact = profile?.contacts?.find((contact) => contact.is_login);
  const left = useTimeLeft((now) =>
    loginContact
      ? confirmContactHintLeft(regTime, now, {
          isConfirmed: loginContact.is_confirmed,
          confirmSent: readStored(STORAGE_KEYS.confirmSent) !== null,
        })
      : 0,
  );
  if (!loginContact || left <= 0) return null;

  const open = () => {
    const id = dialogs.open({
      name: 'emailConfirmation',
      label: t(`hints.confirm.title.${loginContact.type}`),
      render: () => (
        <ContactConfirmationForm
          contact={loginContact}
          onConfirmed={() => {
            dialogs.close(id, { immediate: true });
            showToast({ type: 'success', message: t('hints.confirm.done') });
            void queryClient.invalidateQueries({ queryKey: accountKeys.profile() });
          }}
        />
      ),
    });
  };

  return (
    <aside className={styles.hint} aria-label={t(`hints.confirm.title.${loginContact.type}`)} data-testid="confirm-contact-hint">
      <Icon name="mail" className={styles.hintIcon} />
      <p className={styles.hintText}>{t(`hints.confirm.text.${loginContact.type}`, { contact: loginContact.contact })}</p>
      <button type="button" className={styles.hintAction} onClick={open}>
        {t('hints.confirm.action')}
      </button>
    </aside>
  );
}
