import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { cashierKeys, getDepositLimits, setDepositLimit, type DepositLimit } from '@/features/cashier';
import { LimitsList } from '@/features/cashier';
import screens from '@/components/screens.module.css';
import { ProfileFrame } from './profile-frame';
import { fieldError, formError } from './use-api-form';

export const LIMIT_PERIODS = ['day', 'week', 'month'] as const;

/**
 * SPEC 24-hour rule as the server applies it: a new or lower limit applies at once; raising or
 * removing one waits 24 hours. Answers which of the two a change is.
 */
export function limitChangeTiming(current: DepositLimit | undefined, wanted: string): 'now' | 'after24h' | 'none' {
  const amount = wanted.trim();
  const inForce = current?.limit_amount ? Math.trunc(Number(current.limit_amount.amount)) : null;
  if (amount === '') return inForce === null ? 'none' : 'after24h';
  if (inForce === null) return 'now';
  return Number(amount) <= inForce ? 'now' : 'after24h';
}

function LimitForm({ period, current }: { period: string; current: DepositLimit | undefined }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState('');
  const save = useMutation({
    mutationFn: () => setDepositLimit(period, amount.trim()),
    onSuccess: () => {
      setAmount('');
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
        name={`limit-${period}`}
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

/** /profile/responsible-game: deposit limits per period, with the 24-hour rule shown. */
export function ResponsiblePage() {
  const { t } = useTranslation();
  const limits = useQuery({ queryKey: cashierKeys.limits(), queryFn: ({ signal }) => getDepositLimits({ signal }) });
  return (
    <ProfileFrame tab="profileResponsibleGame">
      <section className={screens.card} aria-labelledby="limits-now">
        <h2 id="limits-now" className={screens.cardTitle}>
          {t('cashier.limitsTitle')}
        </h2>
        <p className={screens.muted}>{t('profile.limitsRule')}</p>
        {limits.isPending ? <Spinner label={t('app.loading')} /> : <LimitsList limits={limits.data ?? []} />}
      </section>
      <section className={screens.card} aria-labelledby="limits-change">
        <h2 id="limits-change" className={screens.cardTitle}>
          {t('profile.changeLimits')}
        </h2>
        {LIMIT_PERIODS.map((period) => (
          <LimitForm key={period} period={period} current={limits.data?.find((l) => l.period === period)} />
        ))}
      </section>
    </ProfileFrame>
  );
}
