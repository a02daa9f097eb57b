import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useSiteConfig } from '@/config/site-config';
import { accountKeys, useAccount } from '@/features/account/api/get-account-info';
import screens from '@/components/screens.module.css';
import { apiGet, apiPost } from '@/lib/api/client';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { useLocale } from '@/lib/i18n';
import { askTelegramLogin } from '@/lib/telegram';
import { formatMessage, rules } from '@/lib/validation';
import type { RuleResult } from '@/lib/validation';
import { showToast } from '@/lib/toasts/toast-store';
import { ProfileFrame } from './profile-frame';
import { fieldError, formError } from './use-api-form';

function useRuleText() {
  const { t } = useTranslation();
  return (failure: RuleResult) => (failure ? formatMessage(t(`validation.${failure.message}`), failure.params ?? {}) : undefined);
}

function PasswordForm() {
  const { t } = useTranslation();
  const text = useRuleText();
  const [values, setValues] = useState({ old_password: '', new_password: '', new_password_repeat: '' });
  const [checked, setChecked] = useState(false);
  const failures = {
    old_password: rules.required(values.old_password),
    new_password: rules.password(values.new_password, { spaceWord: t('validation.space') }),
    new_password_repeat: rules.password(values.new_password_repeat, { repeatOf: values.new_password, spaceWord: t('validation.space') }),
  };
  const change = useMutation({
    mutationFn: () => apiPost<1>('account.changepassword', values, { textFields: Object.keys(values) }),
    onSuccess: () => {
      setValues({ old_password: '', new_password: '', new_password_repeat: '' });
      setChecked(false);
      showToast({ type: 'success', message: t('profile.passwordChanged') });
    },
  });
  const fields = ['old_password', 'new_password', 'new_password_repeat'] as const;
  return (
    <form
      className={`${screens.card} ${screens.form}`}
      noValidate
      aria-labelledby="password-title"
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (Object.values(failures).every((f) => f === null)) change.mutate();
      }}
    >
      <h2 id="password-title" className={screens.cardTitle}>
        {t('profile.password')}
      </h2>
      {fields.map((name) => (
        <TextField
          key={name}
          type="password"
          label={t(`profile.field.${name}`)}
          name={name}
          autoComplete={name === 'old_password' ? 'current-password' : 'new-password'}
          value={values[name]}
          onValueChange={(value) => { setValues((current) => ({ ...current, [name]: value })); }}
          error={(checked ? text(failures[name]) : undefined) ?? fieldError(t, change.error, name)}
        />
      ))}
      {formError(t, change.error, fields) && <p className={screens.alert}>{formError(t, change.error, fields)}</p>}
      <div>
        <Button type="submit" disabled={change.isPending}>
          {t('profile.changePassword')}
        </Button>
      </div>
    </form>
  );
}

function TwoFactor({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const text = useRuleText();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [asked, setAsked] = useState<boolean | null>(null);
  const ask = useMutation({
    mutationFn: (enable: boolean) => apiPost<{ resend_time: number }>('account.changeTwoFactorAuth', { enable }),
    onSuccess: (_, enable) => { setAsked(enable); },
  });
  const confirm = useMutation({
    mutationFn: () => apiPost<1>('account.confirmTwoFactorAuth', { code: code.trim() }, { textFields: ['code'] }),
    onSuccess: () => {
      setAsked(null);
      setCode('');
      showToast({ type: 'success', message: t('profile.twoFactorChanged') });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
    },
  });
  const failure = code ? rules.twoFactorCode(code) : null;
  return (
    <section className={screens.card} aria-labelledby="two-factor" data-testid="two-factor" data-enabled={enabled}>
      <h2 id="two-factor" className={screens.cardTitle}>
        {t('profile.twoFactor')}
      </h2>
      <p className={screens.muted}>{enabled ? t('profile.twoFactorOn') : t('profile.twoFactorOff')}</p>
      {asked === null ? (
        <div>
          <Button variant={enabled ? 'secondary' : 'primary'} disabled={ask.isPending} onClick={() => { ask.mutate(!enabled); }}>
            {enabled ? t('profile.twoFactorDisable') : t('profile.twoFactorEnable')}
          </Button>
        </div>
      ) : (
        <form
          className={screens.form}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            if (!rules.twoFactorCode(code.trim())) confirm.mutate();
          }}
        >
          <p className={screens.notice}>{t('profile.twoFactorCodeSent')}</p>
          <TextField
            label={t('profile.code')}
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            mask="######"
            value={code}
            onValueChange={setCode}
            error={text(failure) ?? fieldError(t, confirm.error, 'code')}
          />
          <div className={screens.row}>
            <Button type="submit" disabled={confirm.isPending}>
              {t('profile.confirm')}
            </Button>
            <Button variant="ghost" onClick={() => { setAsked(null); }}>
              {t('profile.cancel')}
            </Button>
          </div>
        </form>
      )}
      {formError(t, ask.error ?? confirm.error, ['code']) && <p className={screens.alert}>{formError(t, ask.error ?? confirm.error, ['code'])}</p>}
    </section>
  );
}

interface TelegramLink {
  available: boolean;
  bot_id: number | null;
  bot_username: string | null;
  linked: boolean;
  only_way_in: boolean;
}

const telegramLinkKey = [...accountKeys.all, 'telegram-link'] as const;

function UnlinkDialog({ onlyWayIn, close, onConfirm }: { onlyWayIn: boolean; close: (options?: { immediate?: boolean }) => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <div className={screens.form} data-testid="telegram-unlink-dialog">
      <h2 className={screens.cardTitle}>{t('profile.telegram.unlinkTitle')}</h2>
      <p>{onlyWayIn ? t('profile.telegram.onlyWayIn') : t('profile.telegram.unlinkText')}</p>
      <div className={screens.row}>
        {!onlyWayIn && (
          <Button
            data-testid="telegram-unlink-confirm"
            onClick={() => {
              close({ immediate: true });
              onConfirm();
            }}
          >
            {t('profile.telegram.unlink')}
          </Button>
        )}
        <Button variant="secondary" data-autofocus onClick={() => { close(); }}>
          {onlyWayIn ? t('profile.telegram.understood') : t('profile.cancel')}
        </Button>
      </div>
    </div>
  );
}

/** Links the account to Telegram through the Login Widget, or unlinks it (with a confirm). */
function TelegramSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const state = useQuery({ queryKey: telegramLinkKey, queryFn: ({ signal }) => apiGet<TelegramLink>('account.getTelegramLink', undefined, { signal }) });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: telegramLinkKey });
    void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
  };
  const link = useMutation({
    mutationFn: async (botId: number) => {
      const data = await askTelegramLogin(botId, locale);
      if (!data) return false;
      await apiPost('account.linkTelegram', data);
      return true;
    },
    onSuccess: (linked) => {
      if (!linked) return;
      showToast({ type: 'success', message: t('profile.telegram.linked') });
      refresh();
    },
  });
  const unlink = useMutation({
    mutationFn: () => apiPost<1>('account.unlinkTelegram'),
    onSuccess: () => {
      showToast({ type: 'success', message: t('profile.telegram.unlinked') });
      refresh();
    },
  });
  const data = state.data;
  if (!data || (!data.linked && !data.available)) return null;
  const failure = link.error ?? unlink.error;
  return (
    <section className={screens.card} aria-labelledby="telegram-title" data-testid="telegram-link" data-linked={data.linked}>
      <h2 id="telegram-title" className={screens.cardTitle}>
        {t('profile.telegram.title')}
      </h2>
      <p className={screens.muted}>{data.linked ? t('profile.telegram.isLinked') : t('profile.telegram.notLinked')}</p>
      {failure && (
        <p className={screens.alert} role="alert">
          {fieldError(t, failure, 'id') ?? fieldError(t, failure, 'telegram') ?? t('profile.telegram.failed')}
        </p>
      )}
      <div>
        {data.linked ? (
          <Button variant="secondary" disabled={unlink.isPending} onClick={() => {
              dialogs.open({
                name: 'telegram-unlink',
                label: t('profile.telegram.unlinkTitle'),
                kind: 'confirm',
                render: ({ close }) => <UnlinkDialog onlyWayIn={data.only_way_in} close={close} onConfirm={() => { unlink.mutate(); }} />,
              });
            }}>
            {t('profile.telegram.unlink')}
          </Button>
        ) : (
          <Button disabled={link.isPending || data.bot_id === null} onClick={() => { if (data.bot_id !== null) link.mutate(data.bot_id); }}>
            {t('profile.telegram.link')}
          </Button>
        )}
      </div>
    </section>
  );
}

/** /profile/security: password, two-factor sign-in (when the switch is on) and the Telegram link. */
export function SecurityPage() {
  const account = useAccount();
  const { switches } = useSiteConfig();
  return (
    <ProfileFrame tab="profileSecurity">
      <PasswordForm />
      {switches.twoFactor && account && <TwoFactor enabled={account.two_factor_auth} />}
      <TelegramSection />
    </ProfileFrame>
  );
}
