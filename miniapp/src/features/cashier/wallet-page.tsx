import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useGeneralInfo } from '@/features/metadata';
import { cashierKeys, convertAmount, getBalance, getCurrencyRates } from './api';
import { CashierFrame } from './cashier-nav';

/** /cashier/wallet: every balance of the account. */
export function WalletPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const balance = useQuery({ queryKey: cashierKeys.balance(), queryFn: ({ signal }) => getBalance({ signal }) });
  const reference = useGeneralInfo().data?.default_currency;
  const main = balance.data?.balance_main;
  const foreign = main !== undefined && reference !== undefined && main.currency !== reference;
  const rates = useQuery({
    queryKey: cashierKeys.rates(),
    queryFn: ({ signal }) => getCurrencyRates({ signal }),
    enabled: foreign,
    staleTime: 10 * 60_000,
  });
  const converted = foreign && rates.data ? convertAmount(main.amount, main.currency, reference, rates.data) : null;
  const rows = balance.data
    ? ([
        ['main', balance.data.balance_main],
        ['bonus', balance.data.balance_bonus],
        ['bettingBonus', balance.data.balance_betting_bonus],
        ['fun', balance.data.balance_fun],
      ] as const)
    : [];
  return (
    <CashierFrame title={t('pages.cashierWallet')}>
      {balance.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : (
        <section className={screens.card}>
          <dl className={screens.dl} data-testid="wallet">
            {rows.map(([key, money]) => (
              <div key={key} style={{ display: 'contents' }}>
                <dt>{t(`cashier.wallet.${key}`)}</dt>
                <dd className={screens.amount}>{formatMoney(money.amount, money.currency, locale)}</dd>
              </div>
            ))}
          </dl>
          {converted !== null && reference && (
            <p className={screens.muted} data-testid="wallet-reference">
              {t('cashier.wallet.reference', { amount: formatMoney(converted, reference, locale) })}
            </p>
          )}
          <div className={screens.row}>
            <Link className={buttonClassName('primary')} to={localizePath('/cashier/deposit', locale)}>
              {t('cashier.tab.deposit')}
            </Link>
            <Link className={buttonClassName('secondary')} to={localizePath('/cashier/withdraw', locale)}>
              {t('cashier.tab.withdraw')}
            </Link>
          </div>
        </section>
      )}
    </CashierFrame>
  );
}
