import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { SelectField } from '@/components/ui/select-field';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { accountKeys } from '@/features/account';
import { bonusKeys, burnConfirmationOf, confirmBurnBonuses } from '@/features/bonuses';
import screens from '@/components/screens.module.css';
import { ApiError } from '@/lib/api/client';
import { trackEvent } from '@/lib/analytics';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { formatMessage, rules } from '@/lib/validation';
import { cashierKeys, getWithdrawSettings, makeWithdrawal, requisitesText, wholeUnits, type PaymentInfo } from './api';
import { CashierFrame } from './cashier-nav';
import { cashierErrorText, EXCEPTION_BUTTONS, isCashierError, serverFieldText, serverRequisiteText } from './errors';
import { PaymentItem } from './payment-item';
import { RequisiteField } from './requisite-field';

/** /cashier/withdraw: the checks of the server, its SPEC §8 errors, and the exception buttons. */
export function WithdrawPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: cashierKeys.withdraw(), queryFn: ({ signal }) => getWithdrawSettings({ signal }) });
  const [methodName, setMethodName] = useState('');
  const [amount, setAmount] = useState('');
  const [requisites, setRequisites] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [made, setMade] = useState<PaymentInfo | null>(null);

  const methods = settings.data?.methods ?? [];
  const method = methods.find((m) => m.sysname === methodName) ?? methods[0];
  const currency = settings.data?.currency ?? 'USD';
  const min = method ? wholeUnits(method.min.amount) : 0;
  const max = method ? wholeUnits(method.max.amount) : 0;
  const failure = rules.sum(amount, { min, max, currency, locale });

  const withdraw = useMutation({
    mutationFn: (burnBonuses: boolean) => {
      if (!method) throw new Error('no method');
      return makeWithdrawal(method.sysname, amount.trim(), requisitesText(requisites, method.requisites), burnBonuses);
    },
    onSuccess: (payment, burnBonuses) => {
      setMade(payment);
      trackEvent('make_withdrawal', { id: payment.id, amount: payment.amount.amount, currency: payment.amount.currency, method: payment.method });
      setAmount('');
      setChecked(false);
      void queryClient.invalidateQueries({ queryKey: cashierKeys.all });
      void queryClient.invalidateQueries({ queryKey: accountKeys.info() });
      if (burnBonuses) void queryClient.invalidateQueries({ queryKey: bonusKeys.all });
    },
    onError: (error) => {
      // SPEC §2 "burn-bonuses confirm": the same withdrawal again once the player accepts the loss.
      const burn = burnConfirmationOf(error);
      if (burn) confirmBurnBonuses(burn.bonuses, formatMoney(burn.amount, currency, locale), () => { withdraw.mutate(true); });
    },
  });
  const errorType = withdraw.error instanceof ApiError && isCashierError(withdraw.error.type) ? withdraw.error.type : null;
  const exception = errorType ? EXCEPTION_BUTTONS[errorType] : undefined;
  // The burn-bonuses question is asked in its dialog, not under the form.
  const formError = withdraw.error && !burnConfirmationOf(withdraw.error) ? cashierErrorText(t, withdraw.error) : null;
  const amountError = checked && failure ? formatMessage(t(`validation.${failure.message}`), failure.params ?? {}) : serverFieldText(t, withdraw.error, 'amount');
  const data = settings.data;

  return (
    <CashierFrame title={t('pages.cashierWithdraw')}>
      {settings.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : !data ? (
        <p className={screens.alert} role="alert">
          {cashierErrorText(t, settings.error)}
        </p>
      ) : (
        <div className={screens.page}>
          <section className={screens.card}>
            <dl className={screens.dl}>
              <dt>{t('cashier.withdrawable')}</dt>
              <dd className={screens.amount} data-testid="withdrawable">
                {formatMoney(data.balance.amount, data.balance.currency, locale)}
              </dd>
              <dt>{t('cashier.dailyLeft')}</dt>
              <dd>
                {formatMoney(data.period_available.amount, data.period_available.currency, locale)} / {formatMoney(data.period_limit.amount, data.period_limit.currency, locale)}
              </dd>
            </dl>
            {!data.requirements.contact_confirmed && <p className={screens.notice}>{t('cashier.errors.UserNeedConfirmContactException')}</p>}
            {!data.requirements.profile_complete && <p className={screens.notice}>{t('cashier.errors.UserNeedProfileDataException')}</p>}
            {data.requirements.kyc_required && !data.requirements.kyc_verified && <p className={screens.notice}>{t('cashier.errors.KycWithdrawalException')}</p>}
          </section>
          <form
            className={`${screens.card} ${screens.form}`}
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              setChecked(true);
              setMade(null);
              if (!failure && method?.requisites.every((f) => (requisites[f] ?? '').trim() !== '')) withdraw.mutate(false);
            }}
          >
            <SelectField
              label={t('cashier.method')}
              name="method"
              value={method?.sysname ?? ''}
              options={methods.map((m) => ({ value: m.sysname, label: m.name }))}
              onValueChange={setMethodName}
            />
            <TextField
              label={formatMessage(t('cashier.amountLabel'), { currency })}
              name="amount"
              inputMode="numeric"
              value={amount}
              onValueChange={setAmount}
              onBlur={() => { setChecked(true); }}
              error={amountError}
              hint={formatMessage(t('cashier.bounds'), { min: formatMoney(min, currency, locale), max: formatMoney(max, currency, locale) })}
            />
            {method?.requisites.map((field) => (
              <RequisiteField
                key={field}
                method={method.sysname}
                field={field}
                value={requisites[field] ?? ''}
                onValueChange={(value) => { setRequisites((current) => ({ ...current, [field]: value })); }}
                error={checked && !(requisites[field] ?? '').trim() ? t('validation.required') : serverRequisiteText(t, withdraw.error, field)}
              />
            ))}
            {formError && (
              <div className={screens.alert} role="alert" data-error={errorType ?? undefined}>
                <p>{formError}</p>
                {exception && (
                  <Link className={buttonClassName('secondary')} to={localizePath(exception.to, locale)}>
                    {t(`cashier.exception.${exception.label}`)}
                  </Link>
                )}
              </div>
            )}
            <Button type="submit" disabled={withdraw.isPending} fullWidth>
              {t('cashier.withdrawButton')}
            </Button>
          </form>
          {made && (
            <section className={screens.card} role="status" data-testid="withdrawal-made">
              <h2 className={screens.cardTitle}>{t('cashier.withdrawalMade')}</h2>
              <ul className={screens.list}>
                <PaymentItem payment={made} onChanged={() => { setMade({ ...made, status: 'cancelled' }); }} />
              </ul>
            </section>
          )}
        </div>
      )}
    </CashierFrame>
  );
}
