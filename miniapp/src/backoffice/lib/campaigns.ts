// Campaigns as the console edits them: the form's values ⇄ the `/admin/campaigns` body
// (`CampaignInput` of webapp-server/src/features/bonuses/admin.rs: amounts in minor units per
// currency, times in Unix seconds, lists as arrays), and the server's checks repeated on the
// client so a form shows its mistakes before it is sent. The server stays the authority (it also
// checks what the client cannot: that games exist, that a sysname is free).
//
// Amounts are typed in major units as text (`12.50`) and read into minor units as text too
// (`amountToMinor`), never through a float.
import { amountToMinor, currencyDecimals, minorToAmount } from '@/lib/minor-units';

/** The currencies the server accepts (`croupier_shared::money::CURRENCIES`). */
export const CURRENCIES = [
  'USD', 'EUR', 'GBP', 'CAD', 'AUD', 'NZD', 'CHF', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'BRL', 'MXN', 'INR', 'TRY', 'ZAR', 'JPY', 'KRW',
] as const;

export const CAMPAIGN_STATUSES = ['draft', 'active', 'paused'] as const;
export const TRIGGERS = ['registration', 'deposit', 'promo_code', 'manual'] as const;
export const REWARDS = ['deposit_match', 'fixed', 'freespins', 'freebet', 'odds_boost'] as const;
/** The rewards whose `match_percent` is theirs: a deposit match's percent, an odds boost's (the extra, capped by max_bonus). */
export const PERCENT_REWARDS: readonly string[] = ['deposit_match', 'odds_boost'];

/** The server's bounds (bonuses/admin.rs `CampaignInput::check`, freespins::MAX_PACK, methods::MAX_CODE). */
export const LIMITS = {
  sysname: 64,
  text: 2000,
  depositNumber: 100,
  matchPercent: 1000,
  freespins: 1000,
  wagerMultiplier: 200,
  days: 365,
  code: 64,
} as const;

/** The amount fields of one currency, minor units on the wire. */
export const AMOUNT_FIELDS = ['min_deposit', 'max_bonus', 'max_bet', 'max_conversion', 'freespin_bet'] as const;
type AmountField = (typeof AMOUNT_FIELDS)[number];

/** One currency's amounts as the form holds them: decimal text in major units ('' = not set). */
export type AmountValues = { currency: string } & Record<AmountField, string>;

/** The campaign form's values. Lists are typed comma-separated; times are ISO strings of DateTimeInput. */
export interface CampaignValues {
  sysname: string;
  status: string;
  trigger: string;
  deposit_number: number | null;
  reward: string;
  match_percent: number | null;
  freespin_game: string;
  freespin_count: number | null;
  wager_multiplier: number | null;
  wager_includes_deposit: boolean;
  games: string;
  countries: string;
  exclude_methods: string;
  promotions: string;
  title_en: string;
  title_fr: string;
  text_en: string;
  text_fr: string;
  terms_en: string;
  terms_fr: string;
  image_url: string;
  starts_at: string | Date | null;
  ends_at: string | Date | null;
  claim_days: number | null;
  wager_days: number | null;
  max_takers: number | null;
  /** The version the form was read at (an edit sends it back, so a save over another is refused). */
  version: number | null;
  amounts: AmountValues[];
}

/** The body of `POST /admin/campaigns` and `PUT /admin/campaigns/{id}` (no other key: the server denies unknown fields). */
export interface CampaignBody {
  sysname: string;
  status: string;
  trigger: string;
  deposit_number: number | null;
  exclude_methods: string[];
  countries: string[];
  reward: string;
  match_percent: number;
  freespin_game: string | null;
  freespin_count: number;
  wager_multiplier: number;
  wager_includes_deposit: boolean;
  games: string[];
  title_en: string;
  title_fr: string;
  text_en: string;
  text_fr: string;
  terms_en: string;
  terms_fr: string;
  image_url: string | null;
  promotions: string[];
  starts_at: number | null;
  ends_at: number | null;
  claim_days: number | null;
  wager_days: number | null;
  max_takers: number | null;
  /** On an update: the version read (the server refuses the save with STALE when it moved). */
  version?: number;
  amounts: {
    currency: string;
    min_deposit: number;
    max_bonus: number;
    max_bet: number;
    max_conversion: number | null;
    freespin_bet: number;
  }[];
}

/** Every key of the body: a campaign answer that lacks one of them cannot be edited without retyping it. */
export const BODY_KEYS = [
  'sysname', 'status', 'trigger', 'deposit_number', 'exclude_methods', 'countries', 'reward', 'match_percent', 'freespin_game',
  'freespin_count', 'wager_multiplier', 'wager_includes_deposit', 'games', 'title_en', 'title_fr', 'text_en', 'text_fr',
  'terms_en', 'terms_fr', 'image_url', 'promotions', 'starts_at', 'ends_at', 'claim_days', 'wager_days', 'max_takers', 'amounts',
] as const satisfies readonly (keyof CampaignBody)[];

export const EMPTY_AMOUNT: AmountValues = {
  currency: '',
  min_deposit: '',
  max_bonus: '',
  max_bet: '',
  max_conversion: '',
  freespin_bet: '',
};

/** A new campaign's starting values (the server's defaults: draft, 7 days to claim, 30 to wager). */
export function emptyCampaign(): CampaignValues {
  return {
    sysname: '',
    status: 'draft',
    trigger: 'manual',
    deposit_number: null,
    reward: 'fixed',
    match_percent: null,
    freespin_game: '',
    freespin_count: null,
    wager_multiplier: 0,
    wager_includes_deposit: false,
    games: '',
    countries: '',
    exclude_methods: '',
    promotions: '',
    title_en: '',
    title_fr: '',
    text_en: '',
    text_fr: '',
    terms_en: '',
    terms_fr: '',
    image_url: '',
    starts_at: null,
    ends_at: null,
    claim_days: 7,
    wager_days: 30,
    max_takers: null,
    version: null,
    amounts: [{ ...EMPTY_AMOUNT, currency: 'EUR' }],
  };
}

/** `a, b ,,c` → `['a', 'b', 'c']`. */
export function splitList(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
}

/** Minor units of a typed amount, 0 or more; null when it is not one (a sign, too many decimals). */
export function amountMinor(text: string, currency: string): number | null {
  const minor = amountToMinor(text, currencyDecimals(currency));
  return minor !== null && minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}

/** A DateTimeInput's value (its local `YYYY-MM-DDTHH:mm` text, an ISO string or a Date) → Unix seconds. */
export function secondsOf(value: unknown): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : Math.floor(value.getTime() / 1000);
  if (typeof value !== 'string' || !value) return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : Math.floor(ms / 1000);
}

function intOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The form's values as the body the server reads (call after `validateCampaign` found nothing). */
export function campaignBody(values: CampaignValues): CampaignBody {
  const freespinCount = intOrNull(values.freespin_count) ?? 0;
  return {
    sysname: values.sysname.trim(),
    status: values.status,
    trigger: values.trigger,
    deposit_number: values.trigger === 'deposit' ? intOrNull(values.deposit_number) : null,
    exclude_methods: splitList(values.exclude_methods),
    countries: splitList(values.countries).map((c) => c.toUpperCase()),
    reward: values.reward,
    match_percent: PERCENT_REWARDS.includes(values.reward) ? (intOrNull(values.match_percent) ?? 0) : 0,
    freespin_game: freespinCount > 0 && values.freespin_game.trim() ? values.freespin_game.trim() : null,
    freespin_count: freespinCount,
    wager_multiplier: intOrNull(values.wager_multiplier) ?? 0,
    wager_includes_deposit: values.wager_includes_deposit,
    games: splitList(values.games),
    title_en: values.title_en.trim(),
    title_fr: values.title_fr.trim(),
    text_en: values.text_en.trim(),
    text_fr: values.text_fr.trim(),
    terms_en: values.terms_en.trim(),
    terms_fr: values.terms_fr.trim(),
    image_url: values.image_url.trim() || null,
    promotions: splitList(values.promotions),
    starts_at: secondsOf(values.starts_at),
    ends_at: secondsOf(values.ends_at),
    claim_days: intOrNull(values.claim_days),
    wager_days: intOrNull(values.wager_days),
    max_takers: intOrNull(values.max_takers),
    ...(values.version == null ? {} : { version: values.version }),
    amounts: values.amounts.map((a) => ({
      currency: a.currency.toUpperCase(),
      min_deposit: amountMinor(a.min_deposit || '0', a.currency) ?? 0,
      max_bonus: amountMinor(a.max_bonus || '0', a.currency) ?? 0,
      max_bet: amountMinor(a.max_bet || '0', a.currency) ?? 0,
      max_conversion: a.max_conversion.trim() ? amountMinor(a.max_conversion, a.currency) : null,
      freespin_bet: amountMinor(a.freespin_bet || '0', a.currency) ?? 0,
    })),
  };
}

function listText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : '';
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function isoOf(seconds: unknown): string | null {
  return typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null;
}

function decimalOf(minor: unknown, currency: string): string {
  return typeof minor === 'number' ? minorToAmount(minor, currencyDecimals(currency)) : '';
}

/**
 * A campaign as `GET /admin/campaigns/{id}` answers it → the form's values. Whatever the answer
 * lacks starts empty (see `missingKeys`): the edit page says so, as saving replaces the whole
 * campaign.
 */
export function campaignValues(record: Record<string, unknown>): CampaignValues {
  const empty = emptyCampaign();
  const amounts = Array.isArray(record.amounts) ? (record.amounts as Record<string, unknown>[]) : [];
  return {
    ...empty,
    sysname: textOf(record.sysname),
    status: textOf(record.status) || empty.status,
    trigger: textOf(record.trigger) || empty.trigger,
    deposit_number: intOrNull(record.deposit_number),
    reward: textOf(record.reward) || empty.reward,
    match_percent: intOrNull(record.match_percent),
    freespin_game: textOf(record.freespin_game),
    freespin_count: intOrNull(record.freespin_count),
    wager_multiplier: intOrNull(record.wager_multiplier) ?? empty.wager_multiplier,
    wager_includes_deposit: record.wager_includes_deposit === true,
    games: listText(record.games),
    countries: listText(record.countries),
    exclude_methods: listText(record.exclude_methods),
    promotions: listText(record.promotions),
    title_en: textOf(record.title_en),
    title_fr: textOf(record.title_fr),
    text_en: textOf(record.text_en),
    text_fr: textOf(record.text_fr),
    terms_en: textOf(record.terms_en),
    terms_fr: textOf(record.terms_fr),
    image_url: textOf(record.image_url),
    starts_at: isoOf(record.starts_at),
    ends_at: isoOf(record.ends_at),
    claim_days: intOrNull(record.claim_days) ?? empty.claim_days,
    wager_days: intOrNull(record.wager_days) ?? empty.wager_days,
    max_takers: intOrNull(record.max_takers),
    version: intOrNull(record.version),
    amounts: amounts.map((a) => {
      const currency = textOf(a.currency);
      return {
        currency,
        min_deposit: decimalOf(a.min_deposit, currency),
        max_bonus: decimalOf(a.max_bonus, currency),
        max_bet: decimalOf(a.max_bet, currency),
        max_conversion: decimalOf(a.max_conversion, currency),
        freespin_bet: decimalOf(a.freespin_bet, currency),
      };
    }),
  };
}

/** The body keys a campaign answer does not carry (so the form cannot show what is saved). */
export function missingKeys(record: Record<string, unknown>): string[] {
  return BODY_KEYS.filter((key) => !(key in record));
}

/** A text's length as the server counts it (Rust's `chars().count()`: Unicode code points). */
export function codePoints(text: string): number {
  return Array.from(text).length;
}

const SLUG = /^[a-z0-9_-]{1,64}$/;
const CODE = /^[A-Za-z0-9_-]{1,64}$/;

export function isSlug(text: string): boolean {
  return SLUG.test(text);
}

/** A field's error as react-admin's forms read it: a translation key, or one with arguments. */
export type FieldError = string | { message: string; args: Record<string, unknown> };
export type CampaignErrors = Record<string, FieldError | Record<string, FieldError>[] | undefined>;

const req = 'bo.codes.REQUIRED';
const invalid = 'bo.codes.INVALID';
const maxValue = (max: number): FieldError => ({ message: 'bo.validation.max_value', args: { max } });
const minValue = (min: number): FieldError => ({ message: 'bo.validation.min_value', args: { min } });

function inRange(value: number | null | undefined, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * The server's `CampaignInput::check`, field by field (what it can check without the database),
 * plus what the form needs to read its amounts. Answers react-admin's errors object: `{}` is valid.
 */
export function validateCampaign(values: CampaignValues): CampaignErrors {
  const errors: CampaignErrors = {};
  if (!isSlug(values.sysname.trim())) errors.sysname = values.sysname.trim() ? invalid : req;
  if (!(CAMPAIGN_STATUSES as readonly string[]).includes(values.status)) errors.status = 'bo.codes.UNSUPPORTED';
  if (!(TRIGGERS as readonly string[]).includes(values.trigger)) errors.trigger = 'bo.codes.UNSUPPORTED';
  if (!(REWARDS as readonly string[]).includes(values.reward)) errors.reward = 'bo.codes.UNSUPPORTED';
  if (values.trigger === 'deposit' && values.deposit_number != null && !inRange(values.deposit_number, 1, LIMITS.depositNumber)) {
    errors.deposit_number = maxValue(LIMITS.depositNumber);
  }
  if (PERCENT_REWARDS.includes(values.reward) && !inRange(values.match_percent, 1, LIMITS.matchPercent)) {
    errors.match_percent = maxValue(LIMITS.matchPercent);
  }
  if (values.reward === 'deposit_match' && values.trigger === 'registration') errors.trigger = 'bo.campaigns.match_needs_deposit';
  const spins = values.freespin_count ?? 0;
  if (values.reward === 'freespins' && !spins) errors.freespin_count = req;
  else if (!inRange(spins, 0, LIMITS.freespins)) errors.freespin_count = maxValue(LIMITS.freespins);
  if (spins > 0 && !values.freespin_game.trim()) errors.freespin_game = req;
  if (!inRange(values.wager_multiplier ?? 0, 0, LIMITS.wagerMultiplier)) errors.wager_multiplier = maxValue(LIMITS.wagerMultiplier);
  if (splitList(values.countries).some((c) => !/^[A-Za-z]{2}$/.test(c))) errors.countries = 'bo.campaigns.countries_invalid';
  if (splitList(values.promotions).some((p) => !isSlug(p))) errors.promotions = invalid;
  if (splitList(values.exclude_methods).some((m) => !isSlug(m))) errors.exclude_methods = invalid;
  for (const [field, required] of [
    ['title_en', true], ['title_fr', true], ['text_en', true], ['text_fr', true], ['terms_en', false], ['terms_fr', false],
  ] as const) {
    const text = values[field];
    if (required && !text.trim()) errors[field] = req;
    else if (codePoints(text) > LIMITS.text) errors[field] = { message: 'bo.validation.max_length', args: { max: LIMITS.text } };
  }
  const starts = secondsOf(values.starts_at);
  const ends = secondsOf(values.ends_at);
  if (starts !== null && ends !== null && ends <= starts) errors.ends_at = 'bo.campaigns.ends_before_start';
  for (const field of ['claim_days', 'wager_days'] as const) {
    const days = values[field];
    if (days != null && !inRange(days, 1, LIMITS.days)) errors[field] = maxValue(LIMITS.days);
  }
  if (values.max_takers != null && !inRange(values.max_takers, 1, Number.MAX_SAFE_INTEGER)) errors.max_takers = minValue(1);

  if (values.amounts.length === 0) errors.amounts = 'bo.campaigns.amounts_required';
  const seen = new Set<string>();
  const rows = values.amounts.map((amount) => {
    const row: Record<string, FieldError> = {};
    const currency = amount.currency.toUpperCase();
    if (!(CURRENCIES as readonly string[]).includes(currency)) row.currency = currency ? 'bo.codes.UNSUPPORTED' : req;
    else if (seen.has(currency)) row.currency = 'bo.codes.DUPLICATE';
    seen.add(currency);
    for (const field of AMOUNT_FIELDS) {
      const text = amount[field].trim();
      if (text && amountMinor(text, currency || 'EUR') === null) row[field] = 'bo.codes.INVALID';
    }
    const needsBonus = ['deposit_match', 'fixed', 'freebet', 'odds_boost'].includes(values.reward);
    if (needsBonus && !row.max_bonus && !(amountMinor(amount.max_bonus.trim() || '0', currency || 'EUR') ?? 0)) {
      row.max_bonus = minValue(1);
    }
    if (spins > 0 && !row.freespin_bet && !(amountMinor(amount.freespin_bet.trim() || '0', currency || 'EUR') ?? 0)) {
      row.freespin_bet = minValue(1);
    }
    return row;
  });
  if (rows.some((row) => Object.keys(row).length > 0)) errors.amounts = rows;
  return errors;
}

/** A promo code as the server accepts it (ASCII letters, digits, `-` and `_`, at most 64). */
export function isPromoCode(text: string): boolean {
  return CODE.test(text.trim());
}
