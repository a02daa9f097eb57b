// Money in integer minor units (what the server counts in) shown as decimal amounts.

// ISO 4217 currencies without minor units; every other one the site sells has two decimals.
const ZERO_DECIMAL_CURRENCIES = new Set(['JPY', 'KRW', 'VND', 'CLP', 'ISK', 'XAF', 'XOF']);

/** How many digits a currency has after the decimal point. */
export function currencyDecimals(currency: string): number {
  return ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
}

/** Integer minor units as a decimal string in major units: (123456, 2) → `1234.56`, without floating point. */
export function minorToAmount(minor: number, decimals: number): string {
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.trunc(Math.abs(minor))).padStart(decimals + 1, '0');
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}
