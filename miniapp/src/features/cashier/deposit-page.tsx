import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExclusionBanner } from '@/components/exclusion-banner';
import { Link, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { TextField } from '@/components/ui/text-field';
import { depositPath } from '@/config/paths';
import { accountInfoQueryOptions, isAuthenticated } from '@/features/account';
import { DepositOfferChoice, depositOfferChoices, depositOfferValue, offersQueryOptions, type Offer } from '@/features/bonuses';
import screens from '@/components/screens.module.css';
import { formatDate, formatMoney, formatTime } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { formatMessage, rules } from '@/lib/validation';
import { cashierKeys, getDepositSettings, makeDeposit, presetsFor, requisitesText, wholeUnits, type DepositLimit, type PaymentMethod } from './api';
import { CashierFrame } from './cashier-nav';
import { RequisiteField } from './requisite-field';
import { cashierErrorText, serverFieldText, serverRequisiteText } from './errors';

export function LimitsList({ limits, testId = 'deposit-limits' }: { limits: readonly DepositLimit[]; testId?: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const set = limits.filter((limit) => limit.limit_amount !== null || (limit.pending_limit_amount ?? null) !== null || limit.expired_at !== null);
  if (set.length === 0) return <p className={screens.muted}>{t('cashier.noLimits')}</p>;
  return (
    <ul className={screens.list} data-testid={testId}>
      {set.map((limit) => (
        <li key={limit.period} className={screens.item}>
          <span>{t(`cashier.period.${limit.period as 'day'}`, { defaultValue: limit.period })}</span>
          <span className={screens.amount}>
            {limit.limit_amount ? formatMoney(limit.limit_amount.amount, limit.limit_amount.currency, locale) : t('cashier.noLimit')}
          </span>
          {limit.available_amount && (
            <span className={screens.muted}>
              {t('cashier.available')}: {formatMoney(limit.available_amount.amount, limit.available_amount.currency, locale)}
            </span>
          )}
          {limit.expired_at && (
            <span className={screens.muted}>
              {formatMessage(t('cashier.pendingLimit'), {
                amount: limit.pending_limit_amount
                  ? formatMoney(limit.pending_limit_amount.amount, limit.pending_limit_amount.currency, locale)
                  : t('cashier.noLimit'),
                date: `${formatDate(limit.expired_at)} ${formatTime(limit.expired_at)}`,
              })}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

interface DepositFormProps {
  method: PaymentMethod;
  currency: string;
  presets: number[];
  /** The bonuses this deposit may take (SPEC §6). */
  offers: readonly Offer[];
}

function DepositForm({ method, currency, presets, offers }: DepositFormProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [amount, setAmount] = useState(presets[0] !== undefined ? String(presets[0]) : '');
  const [requisites, setRequisites] = useState<Record<string, string>>({});
  const [checked, setChecked] = useState(false);
  const [offerChoice, setOfferChoice] = useState<string | null>(null);
  const offerValue = depositOfferValue(offers, offerChoice);
  const min = wholeUnits(method.min.amount);
  const max = wholeUnits(method.max.amount);
  const failure = rules.sum(amount, { min, max, currency, locale });
  const deposit = useMutation({
    mutationFn: () => makeDeposit(method.sysname, amount.trim(), requisitesText(requisites, method.requisites), offerValue),
    onSuccess: (started) => {
      // The provider's payment page; it sends the browser back to the result page.
      window.location.assign(started.redirect_url);
    },
  });
  const amountError = checked && failure ? formatMessage(t(`validation.${failure.message}`), failure.params ?? {}) : serverFieldText(t, deposit.error, 'amount');
  const formError = deposit.error ? cashierErrorText(t, deposit.error) : null;

  return (
    <form
      className={screens.form}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        setChecked(true);
        if (!failure && method.requisites.every((field) => (requisites[field] ?? '').trim() !== '')) deposit.mutate();
      }}
    >
      <div className={screens.chips} role="group" aria-label={t('cashier.presets')}>
        {presets.map((value) => (
          <button key={value} type="button" className={screens.chip} aria-pressed={amount === String(value)} onClick={() => { setAmount(String(value)); }}>
            {formatMoney(value, currency, locale)}
          </button>
        ))}
      </div>
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
      {method.requisites.map((field) => (
        <RequisiteField
          key={field}
          method={method.sysname}
          field={field}
          value={requisites[field] ?? ''}
          onValueChange={(value) => { setRequisites((current) => ({ ...current, [field]: value })); }}
          error={checked && !(requisites[field] ?? '').trim() ? t('validation.required') : serverRequisiteText(t, deposit.error, field)}
        />
      ))}
      <DepositOfferChoice offers={offers} currency={currency} value={offerValue} onChange={setOfferChoice} />
      {formError && (
        <p className={screens.alert} role="alert">
          {formError}
        </p>
      )}
      <Button type="submit" disabled={deposit.isPending || deposit.isSuccess} fullWidth>
        {deposit.isPending || deposit.isSuccess ? t('cashier.redirecting') : formatMessage(t('cashier.depositButton'), { amount: failure ? '' : formatMoney(amount, currency, locale) }).trim()}
      </Button>
    </form>
  );
}

/** /cashier/deposit and /cashier/deposit/{sysname}. */
export function DepositPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { sysname } = useParams();
  const settings = useQuery({ queryKey: cashierKeys.deposit(), queryFn: ({ signal }) => getDepositSettings({ signal }) });
  const account = useQuery(accountInfoQueryOptions());
  // A failed offers lookup only leaves the bonus choice out: the deposit itself goes on.
  const offers = useQuery(offersQueryOptions('deposit')).data?.items ?? [];
  const methods = settings.data?.methods ?? [];
  const method = methods.find((m) => m.sysname.toLowerCase() === sysname?.toLowerCase()) ?? (sysname ? undefined : methods[0]);

  return (
    <CashierFrame title={t('pages.cashierDeposit')}>
      {settings.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : settings.isError ? (
        <p className={screens.alert} role="alert">
          {cashierErrorText(t, settings.error)}
        </p>
      ) : (
        <div className={screens.page}>
          {account.data?.exclusion ? (
            <ExclusionBanner exclusion={account.data.exclusion} />
          ) : (
            settings.data.limits.every((l) => l.limit_amount === null && !l.expired_at) && (
              // Responsible gaming: a prompt to set a deposit limit until one is set.
              <p className={screens.notice} data-testid="deposit-limit-prompt">
                {t('responsible.depositPrompt')}{' '}
                <Link to={localizePath('/profile/responsible-game', locale)}>{t('responsible.depositPromptLink')}</Link>
              </p>
            )
          )}
          <nav className={screens.chips} aria-label={t('cashier.methods')}>
            {methods.map((m) => (
              <Link key={m.sysname} className={screens.chip} aria-current={m === method ? 'page' : undefined} aria-pressed={m === method} to={localizePath(depositPath(m.sysname), locale)}>
                {m.name}
              </Link>
            ))}
          </nav>
          <section className={screens.card} aria-labelledby="deposit-method">
            <h2 id="deposit-method" className={screens.cardTitle}>
              {method?.name ?? t('cashier.unknownMethod')}
            </h2>
            {method && (
              <DepositForm
                key={method.sysname}
                method={method}
                currency={settings.data.currency}
                presets={presetsFor(settings.data.amount_presets, settings.data.currency, method)}
                offers={depositOfferChoices(offers, !isAuthenticated(account.data), method.sysname)}
              />
            )}
          </section>
          <section className={screens.card} aria-labelledby="deposit-limits">
            <h2 id="deposit-limits" className={screens.cardTitle}>
              {t('cashier.limitsTitle')}
            </h2>
            <LimitsList limits={settings.data.limits} />
            <Link to={localizePath('/profile/responsible-game', locale)}>{t('cashier.manageLimits')}</Link>
          </section>
        </div>
      )}
    </CashierFrame>
  );
}
