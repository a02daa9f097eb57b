import type { Locale } from '@/config/locales';

// SPEC §9: dates dd.mm.yyyy, times h:mm, amounts with thousands separators and 2 decimals.
// Money arrives as decimal strings (DESIGN "Money on the wire"); amounts are formatted from the
// string itself so no floating point touches them.

const pad2 = (value: number) => String(value).padStart(2, '0');

/** A Date, or unix seconds as the API sends them (`reg_time`). */
export type DateInput = Date | number;

function toDate(value: DateInput): Date {
  return typeof value === 'number' ? new Date(value * 1000) : value;
}

/** dd.mm.yyyy in every locale, in the browser's time zone. */
export function formatDate(value: DateInput): string {
  const date = toDate(value);
  return `${pad2(date.getDate())}.${pad2(date.getMonth() + 1)}.${String(date.getFullYear())}`;
}

/** h:mm, 24-hour clock, the hour without a leading zero. */
export function formatTime(value: DateInput): string {
  const date = toDate(value);
  return `${String(date.getHours())}:${pad2(date.getMinutes())}`;
}

/** SPEC §9: the joiner word defaults to the Spanish "a las"; callers pass their locale's word. */
export function formatDateTime(value: DateInput, joiner = 'a las'): string {
  return `${formatDate(value)} ${joiner} ${formatTime(value)}`;
}

const SEPARATORS: Record<Locale, { group: string; decimal: string }> = {
  en: { group: ',', decimal: '.' },
  // French groups with a narrow no-break space, as Intl.NumberFormat('fr') does.
  fr: { group: '\u202f', decimal: ',' },
};

/**
 * `1234.5` / `"1234.5"` → `1,234.50` (en) or `1 234,50` (fr). Extra decimals are cut, not
 * rounded: a display never shows more money than there is.
 */
export function formatAmount(value: string | number, locale: Locale): string {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match) return text;
  const [, sign = '', integer = '', fraction = ''] = match;
  const { group, decimal } = SEPARATORS[locale];
  const digits = integer.replace(/^0+(?=\d)/, '') || '0';
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${sign}${grouped}${decimal}${fraction.padEnd(2, '0').slice(0, 2)}`;
}

const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { USD: '$', EUR: '€', GBP: '£', CAD: 'CA$' };

/** An amount with its currency: `$1,234.50` (en), `1 234,50 $` (fr); unknown currencies show their code. */
export function formatMoney(amount: string | number, currency: string, locale: Locale): string {
  const formatted = formatAmount(amount, locale);
  const symbol = CURRENCY_SYMBOLS[currency];
  if (locale === 'en' && symbol) return `${symbol}${formatted}`;
  return `${formatted}\u00a0${symbol ?? currency}`;
}
