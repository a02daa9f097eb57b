// Fields of the back office's wire shapes: money as minor units + currency, times as Unix seconds.
import { DateField, FunctionField, useLocaleState, type DateFieldProps } from 'react-admin';
import { formatMoney } from '../lib/money';

interface MoneyValue {
  amount: number;
  currency: string;
}

function moneyOf(record: Record<string, unknown>, source: string | undefined): MoneyValue | null {
  const value = source === undefined ? record : source.split('.').reduce<unknown>((at, key) => (at as Record<string, unknown> | null)?.[key], record);
  if (typeof value === 'object' && value !== null && typeof (value as MoneyValue).amount === 'number') return value as MoneyValue;
  // A flat record (`amount` and `currency` beside each other).
  if (typeof value === 'number' && typeof record.currency === 'string') return { amount: value, currency: record.currency };
  return null;
}

export interface MoneyFieldProps {
  /** A Money object's path (`balances.main`, `bet`) or a number whose currency is the record's `currency`. */
  source: string;
  label?: string;
  sortable?: boolean;
  signed?: boolean;
}

export function MoneyField({ source, label, sortable, signed }: MoneyFieldProps) {
  const [locale] = useLocaleState();
  return (
    <FunctionField
      source={source}
      {...(label === undefined ? {} : { label })}
      {...(sortable === undefined ? {} : { sortable })}
      textAlign="right"
      render={(record: Record<string, unknown>) => {
        const money = moneyOf(record, source);
        if (!money) return '';
        const text = formatMoney(money.amount, money.currency, locale);
        return signed && money.amount > 0 ? `+${text}` : text;
      }}
    />
  );
}

const fromSeconds = (value: unknown) => new Date(Number(value) * 1000);

/** A Unix-seconds time in the console's locale. */
export function TimeField(props: Omit<DateFieldProps, 'transform' | 'showTime'>) {
  return <DateField {...props} showTime transform={fromSeconds} />;
}
