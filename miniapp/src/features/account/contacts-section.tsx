import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { TextField } from '@/components/ui/text-field';
import { confirmContact, sendContactConfirmation } from '@/features/account/api/confirm-contact';
import { accountKeys } from '@/features/account/api/get-account-info';
import type { Contact } from '@/features/account/api/get-profile-info';
import screens from '@/components/screens.module.css';
import { ApiError, apiGet, apiPost } from '@/lib/api/client';
import { formatMessage, rules } from '@/lib/validation';
import { showToast } from '@/lib/toasts/toast-store';
import { expectOne, fieldError, formError } from './use-api-form';

interface PhoneSettings {
  default_country: string;
  countries: { country: string; code: string; mask: string }[];
}

function ContactRow({ contact }: { contact: Contact }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const send = useMutation({
    mutationFn: () => sendContactConfirmation(contact.contact),
    onSuccess: () => {
      setSent(true);
    },
    onError: (error) => {
      // A code sent moments ago (at registration, or just now) is still good: ask for it.
      if (error instanceof ApiError && Object.values(error.fieldErrors).some((codes) => codes.includes('RESEND_TIME'))) setSent(true);
    },
  });
  const codeFailure = code ? rules.confirmationCode(code) : null;
  const confirm = useMutation({
    mutationFn: () => confirmContact(contact.contact, code),
    onSuccess: () => {
      setCode('');
      setSent(false);
      showToast({ type: 'success', message: t('profile.contactConfirmed') });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['cashier'] });
    },
  });
  const label = contact.phone_country_code ? `+${contact.phone_country_code.replace(/^\+/, '')} ${contact.contact}` : contact.contact;
  return (
    <li className={screens.item} data-testid="contact" data-confirmed={contact.is_confirmed}>
      <span>
        {t(`profile.contactType.${contact.type}`)}: {label}
      </span>
      <span className={screens.status} data-status={contact.is_confirmed ? 'success' : 'pending'}>
        {contact.is_confirmed ? t('profile.confirmed') : t('profile.unconfirmed')}
      </span>
      {!contact.is_confirmed && (
        <form
          className={screens.form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!rules.confirmationCode(code.trim())) confirm.mutate();
          }}
        >
          {!sent ? (
            <Button variant="secondary" disabled={send.isPending} onClick={() => { send.mutate(); }}>
              {t('profile.sendCode')}
            </Button>
          ) : (
            <>
              <TextField
                label={t('profile.code')}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                mask="######"
                value={code}
                onValueChange={setCode}
                error={
                  fieldError(t, confirm.error, 'code') ??
                  (codeFailure ? formatMessage(t(`validation.${codeFailure.message}`), codeFailure.params ?? {}) : undefined)
                }
              />
              <div className={screens.row}>
                <Button type="submit" disabled={confirm.isPending}>
                  {t('profile.confirm')}
                </Button>
                <Button variant="ghost" disabled={send.isPending} onClick={() => { send.mutate(); }}>
                  {t('profile.resend')}
                </Button>
              </div>
            </>
          )}
          {(send.error ?? confirm.error) && !fieldError(t, confirm.error, 'code') ? (
            <p className={screens.alert} role="alert">
              {formError(t, send.error ?? confirm.error, ['code'])}
            </p>
          ) : null}
        </form>
      )}
    </li>
  );
}

function AddContact({ hasPhone }: { hasPhone: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const phone = useQuery({
    queryKey: ['account', 'phone-settings'],
    queryFn: ({ signal }) => apiGet<PhoneSettings>('account.getContactPhoneSettings', undefined, { signal }),
    staleTime: Infinity,
  });
  const countries = phone.data?.countries ?? [];
  const [country, setCountry] = useState('');
  const chosen = countries.find((c) => c.country === country) ?? countries.find((c) => c.country === phone.data?.default_country) ?? countries[0];
  const [number, setNumber] = useState('');
  const add = useMutation({
    mutationFn: async () =>
      expectOne(await apiPost('account.addcontact', { contact: number.replace(/\D/g, ''), phone_country_code: chosen?.code ?? '' }, { textFields: ['contact', 'phone_country_code'] })),
    onSuccess: () => {
      setNumber('');
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
    },
  });
  if (hasPhone || countries.length === 0) return null;
  return (
    <form
      className={screens.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        add.mutate();
      }}
    >
      <SelectField
        label={t('profile.phoneCountry')}
        name="phone_country_code"
        value={chosen?.country ?? ''}
        options={countries.map((c) => ({ value: c.country, label: `${c.country} +${c.code.replace(/^\+/, '')}` }))}
        onValueChange={setCountry}
      />
      <TextField
        label={t('profile.addPhone')}
        name="contact"
        type="tel"
        value={number}
        {...(chosen?.mask ? { mask: chosen.mask } : {})}
        onValueChange={setNumber}
        error={fieldError(t, add.error, 'contact')}
      />
      {formError(t, add.error, ['contact', 'phone_country_code']) && <p className={screens.alert}>{formError(t, add.error, ['contact', 'phone_country_code'])}</p>}
      <div>
        <Button type="submit" variant="secondary" disabled={add.isPending || number.trim() === ''}>
          {t('profile.add')}
        </Button>
      </div>
    </form>
  );
}

/** Contacts with their confirmation codes (SPEC §4 contact states). */
export function ContactsSection({ contacts }: { contacts: readonly Contact[] }) {
  const { t } = useTranslation();
  return (
    <section className={screens.card} aria-labelledby="contacts">
      <h2 id="contacts" className={screens.cardTitle}>
        {t('profile.contacts')}
      </h2>
      <ul className={screens.list}>
        {contacts.map((contact) => (
          <ContactRow key={`${contact.type}:${contact.contact}`} contact={contact} />
        ))}
      </ul>
      <AddContact hasPhone={contacts.some((c) => c.type === 'phone')} />
    </section>
  );
}
