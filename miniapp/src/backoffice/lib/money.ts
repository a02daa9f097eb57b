// Money on the back office's wire is integer minor units plus an ISO currency code; shown with
// the currency's own number of decimals (the site's table, `@/lib/minor-units`), never a float
// computed from the amount before that.

import { amountToMinor, currencyDecimals, minorToAmount } from '@/lib/minor-units';

/** The decimal string of `minor` minor units (`-1050`, EUR → `-10.50`), exact for any safe integer. */
export function minorToDecimal(minor: number, currency: string): string {
  return minorToAmount(minor, currencyDecimals(currency));
}

/** Typed major units (`10.5`) → minor units, or null when not a positive amount with at most the currency's decimals. */
export function decimalToMinor(text: string, currency: string): number | null {
  const minor = amountToMinor(text, currencyDecimals(currency));
  return minor !== null && minor > 0n && minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}

/** `1050`, `EUR`, `fr` → `10,50 €`. */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const decimal = minorToDecimal(minor, currency);
  try {
    // Intl formats the decimal string itself (no float on the way; ES2023 string operands).
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(decimal as unknown as number);
  } catch {
    return `${decimal} ${currency}`;
  }
}
