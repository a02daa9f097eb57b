// Money in integer minor units (what the server counts in) shown as decimal amounts.

const decimalsCache = new Map<string, number>();

/** How many digits a currency has after the decimal point (ISO 4217, as Intl knows it: EUR 2, JPY 0, BHD 3; 2 for a code Intl does not know). */
export function currencyDecimals(currency: string): number {
  const cached = decimalsCache.get(currency);
  if (cached !== undefined) return cached;
  let decimals = 2;
  try {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    decimals = 2;
  }
  decimalsCache.set(currency, decimals);
  return decimals;
}

/** Integer minor units as a decimal string in major units: (123456, 2) → `1234.56`, without floating point. */
export function minorToAmount(minor: number | bigint, decimals: number): string {
  const negative = minor < 0;
  const magnitude = typeof minor === 'bigint' ? (negative ? -minor : minor) : Math.trunc(Math.abs(minor));
  const sign = negative ? '-' : '';
  const digits = String(magnitude).padStart(decimals + 1, '0');
  if (decimals === 0) return `${sign}${digits}`;
  return `${sign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

/**
 * An amount typed in major units (`12.5`, `12,5`) → minor units (1250n for 2 decimals); null for
 * anything else: a sign, more decimals than the currency has, more than 15 whole digits.
 */
export function amountToMinor(text: string, decimals: number): bigint | null {
  const match = /^(\d{1,15})(?:[.,](\d*))?$/.exec(text.trim());
  if (!match?.[1]) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) return null;
  return BigInt(match[1]) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}
