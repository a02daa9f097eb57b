// Money on the back office's wire is integer minor units plus an ISO currency code; shown with
// the currency's own number of decimals (Intl knows them: EUR 2, JPY 0, BHD 3), never a float
// computed from the amount before that.

const digitsCache = new Map<string, number>();

/** The number of decimals of `currency` (2 when Intl does not know it). */
export function currencyDigits(currency: string): number {
  const cached = digitsCache.get(currency);
  if (cached !== undefined) return cached;
  let digits = 2;
  try {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  digitsCache.set(currency, digits);
  return digits;
}

/** The decimal string of `minor` minor units (`-1050`, EUR → `-10.50`), exact for any safe integer. */
export function minorToDecimal(minor: number, currency: string): string {
  const digits = currencyDigits(currency);
  const negative = minor < 0;
  const text = String(Math.abs(Math.trunc(minor))).padStart(digits + 1, '0');
  const whole = digits === 0 ? text : text.slice(0, -digits);
  const fraction = digits === 0 ? '' : `.${text.slice(-digits)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

/** Typed major units (`10.5`) → minor units, or null when not a positive amount with at most the currency's decimals. */
export function decimalToMinor(text: string, currency: string): number | null {
  const digits = currencyDigits(currency);
  const match = /^(\d+)(?:[.,](\d+))?$/.exec(text.trim());
  if (!match?.[1]) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(match[1] + fraction.padEnd(digits, '0'));
  return Number.isSafeInteger(minor) && minor > 0 ? minor : null;
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
