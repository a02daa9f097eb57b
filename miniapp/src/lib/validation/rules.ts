import type { Locale } from '@/config/locales';
import { formatMoney } from '@/lib/format';
import type { RuleFailure } from './messages';

// SPEC §5 rules. Each answers `null` for a valid value, or the failure to show. Bounds are SPEC §9's.

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 20;
export const FAKENAME_MIN = 4;
export const CODE_LENGTH = 6;
export const POSTCODE_MAX_DIGITS = 8;
/** E.164 bounds for country code + number, the same as the server's. */
export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;

export type RuleResult = RuleFailure | null;

const fail = (message: RuleFailure['message'], params?: RuleFailure['params']): RuleFailure =>
  params ? { message, params } : { message };

const isBlank = (value: string) => value.trim() === '';

export function required(value: string): RuleResult {
  return isBlank(value) ? fail('required') : null;
}

export function minLength(value: string, min: number): RuleResult {
  return Array.from(value).length < min ? fail('minLength', { min }) : null;
}

export function maxLength(value: string, max: number): RuleResult {
  return Array.from(value).length > max ? fail('maxLength', { max }) : null;
}

export function minValue(value: number, min: number): RuleResult {
  return value < min ? fail('minValue', { min }) : null;
}

export function maxValue(value: number, max: number): RuleResult {
  return value > max ? fail('maxValue', { max }) : null;
}

export function sameAs(value: string, other: string): RuleResult {
  return value === other ? null : fail('sameAs');
}

export function regex(value: string, pattern: RegExp): RuleResult {
  return pattern.test(value) ? null : fail('regex');
}

/**
 * sum: a positive whole number without a leading zero, else the wrong-field message; out of
 * bounds gives a message with both bounds in the currency (USD unless told).
 */
export function sum(
  value: string,
  { min, max, currency = 'USD', locale = 'en' }: { min: number; max: number; currency?: string; locale?: Locale },
): RuleResult {
  const text = value.trim();
  if (!/^[1-9]\d*$/.test(text)) return fail('wrongField');
  const amount = Number(text);
  if (amount < min || amount > max) {
    return fail('sumRange', { min: formatMoney(min, currency, locale), max: formatMoney(max, currency, locale) });
  }
  return null;
}

/** The symbols SPEC forbids in names: @ _ quote ! ? # $ % ^ & * ( ) { } [ ] | / \ < > ~ § + : ; backtick. */
const NAME_FORBIDDEN = `@_'"!?#$%^&*(){}[]|/\\<>~§+:;\``;

/** name, first_name, last_name: no digits and none of the forbidden symbols; empty is required. */
export function name(value: string): RuleResult {
  if (isBlank(value)) return fail('required');
  return Array.from(value).some((c) => /\d/.test(c) || NAME_FORBIDDEN.includes(c)) ? fail('name') : null;
}

/** The other name variant: Latin, Cyrillic and Latvian letters with common punctuation. */
export function nameLetters(value: string): RuleResult {
  if (isBlank(value)) return fail('required');
  return /^[A-Za-zА-Яа-яЁёĀāČčĒēĢģĪīĶķĻļŅņŠšŪūŽž\s'’.,-]+$/.test(value) ? null : fail('name');
}

/** address: the name set except digits, | and /. */
export function address(value: string): RuleResult {
  if (isBlank(value)) return fail('required');
  return Array.from(value).some((c) => NAME_FORBIDDEN.includes(c) && c !== '|' && c !== '/') ? fail('address') : null;
}

/** text, login, cardHolder, documentType, documentNumber, cpf: required unless isRequired is false. */
export function text(value: string, { isRequired = true }: { isRequired?: boolean } = {}): RuleResult {
  return isRequired ? required(value) : null;
}

/** postcode: a custom pattern when configured, else up to 8 digits. */
export function postcode(value: string, custom?: RegExp): RuleResult {
  const text = value.trim();
  if (text === '') return fail('required');
  const ok = custom ? custom.test(text) : new RegExp(`^\\d{1,${POSTCODE_MAX_DIGITS}}$`).test(text);
  return ok ? null : fail('regex');
}

/** phone: needs a value, then the phone input's own validity flag. */
export function phone(value: string, isValid: boolean): RuleResult {
  if (isBlank(value)) return fail('insertPhone');
  return isValid ? null : fail('wrongPhoneFormat');
}

/** The validity flag of a phone input: country code and number make an E.164 number. */
export function isPhoneNumberValid(countryCode: string, number: string): boolean {
  const code = countryCode.trim().replace(/^\+/, '');
  const national = number.trim().replace(/[\s().-]/g, '');
  if (!/^[1-9]\d{0,2}$/.test(code) || !/^\d+$/.test(national)) return false;
  const total = code.length + national.length;
  return total >= PHONE_MIN_DIGITS && total <= PHONE_MAX_DIGITS;
}

/** email: a local part, a domain and one or two further dot-separated parts, no spaces. */
export function email(value: string): RuleResult {
  const text = value.trim();
  if (text === '') return fail('insertEmail');
  return /^[^\s@]+@[^\s@.]+(\.[^\s@.]+){1,2}$/.test(text) ? null : fail('email');
}

/** Printable ASCII without the space: what a password may hold. */
const PASSWORD_CHAR = /^[\x21-\x7e]$/;

/**
 * password: required, 6 to 20 characters, only allowed characters (the message lists the
 * refused ones; a space is named by `spaceWord`); equal to `repeatOf` when that is given.
 */
export function password(
  value: string,
  { repeatOf, spaceWord = 'space' }: { repeatOf?: string; spaceWord?: string } = {},
): RuleResult {
  if (value === '') return fail('required');
  const length = minLength(value, PASSWORD_MIN) ?? maxLength(value, PASSWORD_MAX);
  if (length) return length;
  const refused = [...new Set(Array.from(value).filter((c) => !PASSWORD_CHAR.test(c)))];
  if (refused.length > 0) {
    return fail('passwordChars', { chars: refused.map((c) => (c === ' ' ? spaceWord : c)).join(', ') });
  }
  if (repeatOf !== undefined) return sameAs(value, repeatOf);
  return null;
}

/** fakename: at least 4 characters; no special symbols, comma, space, underscore, quotes or hyphen. */
export function fakename(value: string): RuleResult {
  if (value === '') return fail('required');
  return minLength(value, FAKENAME_MIN) ?? (/^[\p{L}\p{N}]+$/u.test(value) ? null : fail('fakename'));
}

/** cardHolder: only letters, space, dot, apostrophe and hyphen. */
export function cardHolder(value: string): RuleResult {
  if (isBlank(value)) return fail('required');
  return /^[\p{L} .'’-]+$/u.test(value) ? null : fail('wrongField');
}

/** date: only digits and , . ' -, with a four-digit year between min and max. */
export function date(value: string, { min, max }: { min: number; max: number }): RuleResult {
  const text = value.trim();
  if (text === '') return fail('required');
  if (!/^[\d,.'-]+$/.test(text)) return fail('date');
  const years = text.match(/\d{4}/g) ?? [];
  if (years.length !== 1) return fail('date');
  const year = Number(years[0]);
  return year >= min && year <= max ? null : fail('date');
}

export function sex(value: string): RuleResult {
  return required(value);
}

/** promo: always valid. */
export function promo(): RuleResult {
  return null;
}

export function checkbox(checked: boolean): RuleResult {
  return checked ? null : fail('unchecked');
}

/** custom: a configured pattern, or simply non-empty. */
export function custom(value: string, pattern?: RegExp): RuleResult {
  return pattern ? regex(value, pattern) : required(value);
}

/** Confirmation code: required, digits only, exactly 6. */
export function confirmationCode(value: string): RuleResult {
  const text = value.trim();
  if (text === '') return fail('required');
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(text) ? null : fail('codeLength');
}

/** Two-factor code: 6 digits required ("the code must contain 6 digits"). */
export function twoFactorCode(value: string): RuleResult {
  return new RegExp(`^\\d{${CODE_LENGTH}}$`).test(value.trim()) ? null : fail('codeLength');
}

/** IBAN: country letters, check digits and the ISO 7064 mod-97 check. */
export function iban(value: string): RuleResult {
  const compact = value.replace(/\s/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return fail('iban');
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (const c of rearranged) {
    const digits = /\d/.test(c) ? c : String(c.charCodeAt(0) - 55);
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder === 1 ? null : fail('iban');
}

/** Card number: 12 to 19 digits passing the Luhn check. */
export function cardNumber(value: string): RuleResult {
  const digits = value.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) return fail('cardNumber');
  let total = 0;
  Array.from(digits).reverse().forEach((c, index) => {
    let d = Number(c);
    if (index % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    total += d;
  });
  return total % 10 === 0 ? null : fail('cardNumber');
}
