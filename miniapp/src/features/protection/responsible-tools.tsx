import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/checkbox-field';
import { SelectField } from '@/components/ui/select-field';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import screens from '@/components/screens.module.css';
import { accountKeys, fieldError, formError } from '@/features/account';
import { cashierKeys, LimitsList } from '@/features/cashier';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { formatDate, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { showToast } from '@/lib/toasts/toast-store';
import { formatMessage } from '@/lib/validation';
import { useNavigate } from 'react-router';
import {
  exclude,
  getLimits,
  getRg,
  LIMIT_KINDS,
  protectionKeys,
  setLimit,
  setRealityCheck,
  type Exclusion,
  type LimitKind,
  type PlayLimit,
} from './api';
import { ExclusionBanner } from '@/components/exclusion-banner';
import styles from './protection.module.css';

export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;

/**
 * The 24-hour rule as the server applies it: a new or lower limit applies at once; raising or
 * removing one waits 24 hours. Answers which of the two a change is.
 */
export function limitChangeTiming(current: Pick<PlayLimit, 'limit_amount'> | undefined, wanted: string): 'now' | 'after24h' | 'none' {
  const amount = wanted.trim();
  const inForce = current?.limit_amount ? Math.trunc(Number(current.limit_amount.amount)) : null;
  if (amount === '') return inForce === null ? 'none' : 'after24h';
  if (inForce === null) return 'now';
  return Number(amount) <= inForce ? 'now' : 'after24h';
}

/** When an exclusion of `days` started now would end. */
export function exclusionEnd(days: number, now = Date.now()): Date {
  return new Date(now + days * 86_400_000);
}

function LimitForm({ kind, period, current }: { kind: LimitKind; period: string; current: PlayLimit | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const save = useMutation({
    mutationFn: () => setLimit(kind, period, amount.trim()),
    onSuccess: () => {
      setAmount('');
      void queryClient.invalidateQueries({ queryKey: protectionKeys.limits() });
      void queryClient.invalidateQueries({ queryKey: cashierKeys.all });
    },
  });
  const timing = limitChangeTiming(current, amount);
  const valid = amount.trim() === '' || /^[1-9]\d*$/.test(amount.trim());
  return (
    <form
      className={screens.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (valid && timing !== 'none') save.mutate();
      }}
    >
      <TextField
        label={t(`cashier.period.${period as 'day'}`)}
        name={`limit-${kind}-${period}`}
        inputMode="numeric"
        value={amount}
        onValueChange={setAmount}
        error={valid ? fieldError(t, save.error, 'amount') : t('validation.wrongField')}
        hint={timing === 'after24h' ? t('profile.limitAfter24h') : timing === 'now' ? t('profile.limitNow') : t('profile.limitHint')}
      />
      {formError(t, save.error, ['amount']) && <p className={screens.alert}>{formError(t, save.error, ['amount'])}</p>}
      <div>
        <Button type="submit" variant="secondary" disabled={save.isPending || !valid || timing === 'none' || current?.can_edit === false}>
          {amount.trim() === '' ? t('profile.removeLimit') : t('profile.setLimit')}
        </Button>
      </div>
    </form>
  );
}

/** Deposit, loss and wager limits per period, one kind at a time, with the 24-hour rule shown. */
export function LimitsSection() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<LimitKind>('deposit');
  const limits = useQuery({ queryKey: protectionKeys.limits(), queryFn: ({ signal }) => getLimits({ signal }) });
  const ofKind = (limits.data ?? []).filter((l) => l.kind === kind);
  return (
    <section className={screens.card} aria-labelledby="limits-now">
      <h2 id="limits-now" className={screens.cardTitle}>
        {t('cashier.limitsTitle')}
      </h2>
      <div className={styles.kinds} role="group" aria-label={t('responsible.limitKindsLabel')}>
        {LIMIT_KINDS.map((k) => (
          <Button key={k} variant={k === kind ? 'primary' : 'secondary'} aria-pressed={k === kind} onClick={() => { setKind(k); }}>
            {t(`responsible.limitKinds.${k}`)}
          </Button>
        ))}
      </div>
      <p className={screens.muted}>{t(`responsible.limitKindText.${kind}`)}</p>
      <p className={screens.muted}>
        {t('profile.limitsRule')} {t('responsible.lowestWins')}
      </p>
      {limits.isPending ? <Spinner label={t('app.loading')} /> : <LimitsList limits={ofKind} testId={`${kind}-limits`} />}
      <h3 className={screens.subtitle}>{t('profile.changeLimits')}</h3>
      {LIMIT_PERIODS.map((period) => (
        <LimitForm key={`${kind}-${period}`} kind={kind} period={period} current={ofKind.find((l) => l.period === period)} />
      ))}
    </section>
  );
}

function ConfirmExclusion({ kind, days, onConfirm, onCancel }: { kind: Exclusion['kind']; days: number; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState(false);
  const end = exclusionEnd(days);
  return (
    <div className={styles.reality} data-testid="exclusion-confirm">
      <h2>{t('responsible.confirmTitle')}</h2>
      <p>{formatMessage(t(`responsible.confirmText.${kind}`), { date: `${formatDate(end)} ${formatTime(end)}` })}</p>
      <CheckboxField name="exclusion-confirm" checked={checked} onCheckedChange={setChecked}>
        {t('responsible.confirmCheck')}
      </CheckboxField>
      <div className={styles.actions}>
        <Button disabled={!checked} onClick={onConfirm} data-testid="exclusion-confirm-button">
          {t('responsible.confirmButton')}
        </Button>
        <Button variant="secondary" onClick={onCancel} data-autofocus>
          {t('bonuses.cancel')}
        </Button>
      </div>
    </div>
  );
}

function ExclusionForm({ kind, presets, max }: { kind: Exclusion['kind']; presets: number[]; max: number | null }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState(String(presets[0] ?? 1));
  const [custom, setCustom] = useState('');
  const days = choice === 'custom' ? Number(custom) : Number(choice);
  const validDays = Number.isInteger(days) && days >= 1 && (max === null || days <= max);
  const start = useMutation({
    mutationFn: () => exclude(kind, days),
    onSuccess: async (exclusion) => {
      const end = new Date(exclusion.until * 1000);
      showToast({ type: 'info', message: formatMessage(t('responsible.started'), { date: `${formatDate(end)} ${formatTime(end)}` }) });
      // Every session ended on the server: the site shows the player as signed out.
      queryClient.removeQueries({ queryKey: accountKeys.profile() });
      await queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      await navigate(localizePath('/', locale));
    },
  });
  const options = [
    ...presets.map((d) => ({ value: String(d), label: t(`responsible.days.d${d}` as 'responsible.days.d1') })),
    ...(max === null ? [] : [{ value: 'custom', label: t('responsible.days.custom') }]),
  ];
  return (
    <form
      className={screens.form}
      noValidate
      data-testid={`${kind}-form`}
      onSubmit={(event) => {
        event.preventDefault();
        if (!validDays) return;
        const id = dialogs.open({
          name: 'exclusion-confirm',
          label: t('responsible.confirmTitle'),
          kind: 'confirm',
          render: () => (
            <ConfirmExclusion
              kind={kind}
              days={days}
              onCancel={() => dialogs.close(id)}
              onConfirm={() => {
                dialogs.close(id, { immediate: true });
                start.mutate();
              }}
            />
          ),
        });
      }}
    >
      <SelectField label={t('responsible.duration')} name={`${kind}-days`} value={choice} options={options} onValueChange={setChoice} />
      {choice === 'custom' && max !== null && (
        <TextField
          label={formatMessage(t('responsible.customDays'), { max })}
          name={`${kind}-custom-days`}
          inputMode="numeric"
          value={custom}
          onValueChange={setCustom}
          error={custom !== '' && !validDays ? t('validation.wrongField') : undefined}
        />
      )}
      {formError(t, start.error, []) && <p className={screens.alert}>{formError(t, start.error, [])}</p>}
      <div>
        <Button type="submit" variant="secondary" disabled={!validDays || start.isPending}>
          {kind === 'time_out' ? t('responsible.startTimeOut') : t('responsible.startSelfExclusion')}
        </Button>
      </div>
    </form>
  );
}

/** Time-out and self-exclusion, each explained, each confirmed positively before it starts. */
export function BreakSection() {
  const { t } = useTranslation();
  const rg = useQuery({ queryKey: protectionKeys.rg(), queryFn: ({ signal }) => getRg({ signal }) });
  if (rg.isPending) return <Spinner label={t('app.loading')} />;
  if (!rg.data) return null;
  const { exclusion } = rg.data;
  return (
    <section className={screens.card} aria-labelledby="break-title">
      <h2 id="break-title" className={screens.cardTitle}>
        {t('responsible.breakTitle')}
      </h2>
      {exclusion && <ExclusionBanner exclusion={exclusion} />}
      <h3 className={screens.subtitle}>{t('responsible.timeOut')}</h3>
      <p className={screens.muted}>{t('responsible.timeOutText')}</p>
      <ExclusionForm kind="time_out" presets={rg.data.time_out_days} max={rg.data.time_out_max_days} />
      <h3 className={screens.subtitle}>{t('responsible.selfExclusion')}</h3>
      <p className={screens.muted}>{t('responsible.selfExclusionText')}</p>
      <ExclusionForm kind="self_exclusion" presets={rg.data.self_exclusion_days} max={null} />
    </section>
  );
}

/** The reality-check interval. */
export function RealitySection() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const rg = useQuery({ queryKey: protectionKeys.rg(), queryFn: ({ signal }) => getRg({ signal }) });
  const save = useMutation({
    mutationFn: (minutes: number) => setRealityCheck(minutes),
    onSuccess: () => {
      showToast({ type: 'success', message: t('responsible.realitySaved') });
      void queryClient.invalidateQueries({ queryKey: protectionKeys.all });
    },
  });
  if (!rg.data) return null;
  const options = [
    { value: '0', label: t('responsible.realityOff') },
    ...rg.data.reality_check_options.map((n) => ({ value: String(n), label: formatMessage(t('responsible.minutes'), { n }) })),
  ];
  return (
    <section className={screens.card} aria-labelledby="reality-title">
      <h2 id="reality-title" className={screens.cardTitle}>
        {t('responsible.realityTitle')}
      </h2>
      <SelectField
        label={t('responsible.realityText')}
        name="reality-check"
        value={String(rg.data.reality_check_minutes ?? 0)}
        options={options}
        onValueChange={(value) => { save.mutate(Number(value)); }}
      />
    </section>
  );
}
