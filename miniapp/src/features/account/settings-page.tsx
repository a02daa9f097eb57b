import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { accountKeys, useAccount } from '@/features/account/api/get-account-info';
import { getProfileInfo, type ProfileInfo } from '@/features/account/api/get-profile-info';
import screens from '@/components/screens.module.css';
import { apiGet, apiPost } from '@/lib/api/client';
import { formatMessage, rules } from '@/lib/validation';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast, type ToastType } from '@/lib/toasts/toast-store';
import { ContactsSection } from './contacts-section';
import { ProfileFrame } from './profile-frame';
import { expectOne, fieldError, formError } from './use-api-form';

export const PROFILE_FIELDS = ['first_name', 'last_name', 'birth_date', 'sex', 'country_code', 'region', 'home_town', 'address', 'postcode'] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];
type Values = Record<ProfileField, string>;

export function profileValues(info: ProfileInfo | undefined): Values {
  return {
    first_name: info?.first_name ?? '',
    last_name: info?.last_name ?? '',
    birth_date: info?.birth_date ?? '',
    sex: info?.sex === null || info?.sex === undefined ? '' : String(info.sex),
    country_code: info?.country_code ?? '',
    region: info?.region ?? '',
    home_town: info?.home_town ?? '',
    address: info?.address ?? '',
    postcode: info?.postcode ?? '',
  };
}

/** Only what changed is sent: the server keeps fields it is not given. */
export function changedFields(initial: Values, values: Values): Partial<Values> {
  const changed: Partial<Values> = {};
  for (const field of PROFILE_FIELDS) {
    if (values[field].trim() !== initial[field].trim()) changed[field] = values[field].trim();
  }
  return changed;
}

const TOAST_TYPES: readonly ToastType[] = ['success', 'error', 'info'];

/** SPEC §3 personal data form (`Account.getPersonalDataFields`): which fields exist and which are required. */
export interface PersonalDataField {
  name: string;
  type: string;
  required: boolean;
  max_length: number | null;
  filled: boolean;
}

/** The profile fields the server's form names, in the page's order; every field while it is unknown. */
export function shownFields(form: readonly PersonalDataField[] | undefined): { name: ProfileField; required: boolean }[] {
  if (!form) return PROFILE_FIELDS.map((name) => ({ name, required: false }));
  return PROFILE_FIELDS.flatMap((name) => {
    const field = form.find((f) => f.name === name);
    return field ? [{ name, required: field.required }] : [];
  });
}

function PersonalData({ info, form }: { info: ProfileInfo; form: readonly PersonalDataField[] | undefined }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const from = params.get('from');
  const initial = profileValues(info);
  const [values, setValues] = useState<Values>(initial);
  const [checked, setChecked] = useState(false);
  const shown = shownFields(form);
  const requiredOf = (name: ProfileField) => shown.some((f) => f.name === name && f.required);
  // Coming from a withdrawal, what it needs is checked before saving.
  const missing = from === 'withdraw' ? shown.filter((f) => f.required && values[f.name].trim() === '').map((f) => f.name) : [];
  const save = useMutation({
    mutationFn: async () => expectOne(await apiPost('account.saveProfileInfo', changedFields(initial, values))),
    onSuccess: () => {
      showToast({ type: 'success', message: t('profile.saved') });
      void queryClient.invalidateQueries({ queryKey: accountKeys.all });
      void queryClient.invalidateQueries({ queryKey: ['cashier'] });
    },
  });
  const label = (name: ProfileField) => (requiredOf(name) ? `${t(`profile.field.${name}`)} *` : t(`profile.field.${name}`));
  const clientError = (name: ProfileField) => (checked && missing.includes(name) ? t('validation.required') : undefined);
  const field = (name: ProfileField, extra: { mask?: string; placeholder?: string; autoComplete?: string } = {}) =>
    shown.some((f) => f.name === name) ? (
      <TextField
        key={name}
        label={label(name)}
        name={name}
        value={values[name]}
        onValueChange={(value) => { setValues((current) => ({ ...current, [name]: name === 'country_code' ? value.toUpperCase() : value })); }}
        error={clientError(name) ?? fieldError(t, save.error, name)}
        {...extra}
      />
    ) : null;
  const message = formError(t, save.error, PROFILE_FIELDS);

  return (
    <form
      className={`${screens.card} ${screens.form}`}
      noValidate
      aria-labelledby="personal-data"
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (missing.length === 0) save.mutate();
      }}
    >
      <h2 id="personal-data" className={screens.cardTitle}>
        {t('profile.personalData')}
      </h2>
      {from === 'withdraw' && <p className={screens.notice}>{t('profile.fromWithdraw')}</p>}
      {field('first_name', { autoComplete: 'given-name' })}
      {field('last_name', { autoComplete: 'family-name' })}
      {field('birth_date', { mask: '##.##.####', placeholder: 'dd.mm.yyyy', autoComplete: 'bday' })}
      {shown.some((f) => f.name === 'sex') && (
        <SelectField
          label={label('sex')}
          name="sex"
          value={values.sex}
          options={[
            { value: '', label: '—' },
            { value: '1', label: t('profile.sex.male') },
            { value: '2', label: t('profile.sex.female') },
          ]}
          onValueChange={(value) => { setValues((current) => ({ ...current, sex: value })); }}
          error={clientError('sex') ?? fieldError(t, save.error, 'sex')}
        />
      )}
      {field('country_code', { mask: '@@', placeholder: 'FR', autoComplete: 'country' })}
      {field('region')}
      {field('home_town', { autoComplete: 'address-level2' })}
      {field('address', { autoComplete: 'street-address' })}
      {field('postcode', { autoComplete: 'postal-code' })}
      {message && (
        <p className={screens.alert} role="alert">
          {message}
        </p>
      )}
      <div className={screens.row}>
        <Button type="submit" disabled={save.isPending}>
          {t('profile.save')}
        </Button>
        {from === 'withdraw' && (
          <Link className={buttonClassName('secondary')} to={localizePath('/cashier/withdraw', locale)}>
            {t('profile.backToWithdraw')}
          </Link>
        )}
      </div>
    </form>
  );
}

/** The public nickname (SPEC §5 fakename rule: 4+ letters or digits), shown on leaderboards and winners. */
function Nickname({ current }: { current: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [value, setValue] = useState(current);
  const [checked, setChecked] = useState(false);
  const failure = rules.fakename(value.trim());
  const change = useMutation({
    mutationFn: async () => expectOne(await apiPost('account.changefakename', { fakename: value.trim() }, { textFields: ['fakename'] })),
    onSuccess: () => {
      setChecked(false);
      showToast({ type: 'success', message: t('profile.nicknameChanged') });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
  });
  const ruleText = checked && failure ? formatMessage(t(`validation.${failure.message}`), failure.params ?? {}) : undefined;
  return (
    <form
      className={`${screens.card} ${screens.form}`}
      noValidate
      aria-labelledby="nickname-title"
      data-testid="nickname"
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (!failure && value.trim() !== current) change.mutate();
      }}
    >
      <h2 id="nickname-title" className={screens.cardTitle}>
        {t('profile.nickname')}
      </h2>
      <p className={screens.muted}>{t('profile.nicknameHint')}</p>
      <TextField
        label={t('auth.fields.fakename')}
        name="fakename"
        autoComplete="nickname"
        value={value}
        onValueChange={setValue}
        error={ruleText ?? fieldError(t, change.error, 'fakename')}
      />
      {formError(t, change.error, ['fakename']) && <p className={screens.alert}>{formError(t, change.error, ['fakename'])}</p>}
      <div>
        <Button type="submit" disabled={change.isPending || value.trim() === current}>
          {t('profile.save')}
        </Button>
      </div>
    </form>
  );
}

/** /profile/settings?from=…&toastType=…: nickname, personal data and contacts. */
export function SettingsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const info = useQuery({ queryKey: [...accountKeys.profile(), 'settings'], queryFn: ({ signal }) => getProfileInfo({ signal }) });
  const account = useAccount();
  const form = useQuery({
    queryKey: [...accountKeys.profile(), 'fields'],
    queryFn: ({ signal }) => apiGet<PersonalDataField[]>('Account.getPersonalDataFields', undefined, { signal }),
  });

  // toastType: a toast to greet the player with (e.g. after a confirmation link), then dropped from the address.
  const toastType = params.get('toastType');
  useEffect(() => {
    if (!toastType) return;
    const type = TOAST_TYPES.find((known) => known === toastType) ?? 'info';
    showToast({ type, message: t(`profile.toast.${type}`) });
    const next = new URLSearchParams(params);
    next.delete('toastType');
    setParams(next, { replace: true });
  }, [toastType, params, setParams, t]);

  return (
    <ProfileFrame tab="profileSettings">
      {info.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : info.data ? (
        <>
          {account && <Nickname key={account.fakename ?? ''} current={account.fakename ?? ''} />}
          <PersonalData key={JSON.stringify(profileValues(info.data))} info={info.data} form={form.data} />
          <ContactsSection contacts={info.data.contacts ?? []} />
        </>
      ) : (
        <p className={screens.alert}>{t('errors.unknown')}</p>
      )}
    </ProfileFrame>
  );
}
