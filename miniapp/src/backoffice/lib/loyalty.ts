// The loyalty programme's admin API (webapp-server/src/features/loyalty/admin.rs, mounted under
// `/backoffice/api/admin/loyalty` for operators with campaigns.manage): its answers' shapes, the
// checks its handlers make (repeated here so a form is refused before it is sent) and the bodies
// they read (they refuse unknown fields).
//
// Rates and levels are replaced whole (`PUT … {items}`): the forms edit the full list the
// programme answered. The server names a failing field without its row (`min_points`, not
// `items.2.min_points`), so its errors are shown above the form rather than on a row.
import { CURRENCIES, codePoints, isSlug, type FieldError } from './campaigns';

export interface LoyaltySettings {
  active: boolean;
  levels_drop: boolean;
}

export interface LoyaltyRate {
  /** A game type (casino, slot, live, fast, sport…) or `*` for any other. */
  game_type: string;
  currency: string;
  /** Milli-points per major unit staked (100: a point per 10 units). */
  milli_per_unit: number;
}

export interface LoyaltyLevel {
  level: number;
  min_points: number;
  title_en: string;
  title_fr: string;
  description_en: string;
  description_fr: string;
  image: string | null;
  campaign_id: number | null;
}

export interface LoyaltyCharacter {
  id: number;
  sysname: string;
  title_en: string;
  min_level: number;
  active: boolean;
}

export interface LoyaltyProduct {
  id: number;
  sysname: string;
  title_en: string;
  price: number;
  kind: string;
  campaign_id: number | null;
  boost_bps: number | null;
  min_level: number;
  stock: number | null;
  active: boolean;
}

export interface LoyaltyProgram {
  id: number;
  sysname: string;
  title_en: string;
  active: boolean;
}

export interface LoyaltyQuest {
  id: number;
  program_id: number;
  sysname: string;
  goal: string;
  target: number;
  game_type: string | null;
  reward_points: number;
  active: boolean;
}

/** `GET /admin/loyalty`. */
export interface LoyaltyConfig {
  settings: LoyaltySettings;
  rates: LoyaltyRate[];
  levels: LoyaltyLevel[];
  characters: LoyaltyCharacter[];
  products: LoyaltyProduct[];
  programs: LoyaltyProgram[];
  quests: LoyaltyQuest[];
}

export interface LoyaltyEntry {
  key: string;
  /** adjust | quest | purchase | rollback … */
  kind: string;
  points_milli: number;
  lifetime_milli: number;
  reason: string | null;
  /** Seconds. */
  created_at: number;
}

/** `GET /admin/loyalty/accounts/{user_id}`. */
export interface LoyaltyAccount {
  user_id: number;
  points: number;
  points_milli: number;
  lifetime_points: number;
  lifetime_milli: number;
  earned_by_bets_milli: number;
  level: number;
  character_id: number | null;
  active: boolean;
  entries: LoyaltyEntry[];
}

/** Milli-points in a point (loyalty `MILLI`). */
export const MILLI = 1000;

/** Whole points of a milli-point amount, rounded towards zero as the server shows them, with the
 * thousandths when there are some ("12", "-3", "0.25"). Integer arithmetic only. */
export function pointsText(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const whole = Math.floor(abs / MILLI);
  const rest = abs % MILLI;
  if (rest === 0) return `${sign}${String(whole)}`;
  return `${sign}${String(whole)}.${String(rest).padStart(3, '0').replace(/0+$/, '')}`;
}

/** Points earned per 100 major units staked at a rate (`milli_per_unit` × 100 / 1000). */
export function pointsPer100(milliPerUnit: number): string {
  return pointsText(milliPerUnit * 100);
}

/** The limits the handlers check. */
export const LOYALTY_LIMITS = {
  milliPerUnit: 1_000_000,
  level: 100,
  title: 100,
  levelDescription: 500,
  image: 500,
} as const;

type RowErrors = Record<string, FieldError>;
export type ListErrors = Record<string, FieldError | RowErrors[] | undefined>;

const req = 'bo.codes.REQUIRED';
const invalid = 'bo.codes.INVALID';
const maxValue = (max: number): FieldError => ({ message: 'bo.validation.max_value', args: { max } });
const minValue = (min: number): FieldError => ({ message: 'bo.validation.min_value', args: { min } });
const maxLength = (max: number): FieldError => ({ message: 'bo.validation.max_length', args: { max } });

function isInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The errors object of a list form: `items` holds one object per row when a row has any. */
function withRows(errors: ListErrors, rows: RowErrors[]): ListErrors {
  if (rows.some((row) => Object.keys(row).length > 0)) errors.items = rows;
  return errors;
}

/** A rate row as the form holds it (numbers may be empty while typing). */
export interface RateValues {
  game_type?: string | null;
  currency?: string | null;
  milli_per_unit?: number | null;
}

/** `check_rates`: a game type (`*` or a system name), a supported currency, 0 to 1,000,000
 * milli-points, each game type and currency once. */
export function validateRates(values: { items?: RateValues[] | null }): ListErrors {
  const items = values.items ?? [];
  const seen = new Set<string>();
  const rows = items.map((rate) => {
    const row: RowErrors = {};
    const gameType = str(rate.game_type).trim();
    const currency = str(rate.currency).trim();
    if (!gameType) row.game_type = req;
    else if (gameType !== '*' && !isSlug(gameType)) row.game_type = 'bo.loyalty.game_type_invalid';
    if (!currency) row.currency = req;
    else if (!(CURRENCIES as readonly string[]).includes(currency)) row.currency = 'bo.codes.UNSUPPORTED';
    const milli = rate.milli_per_unit;
    if (milli === null || milli === undefined) row.milli_per_unit = req;
    else if (!isInt(milli) || milli < 0) row.milli_per_unit = minValue(0);
    else if (milli > LOYALTY_LIMITS.milliPerUnit) row.milli_per_unit = maxValue(LOYALTY_LIMITS.milliPerUnit);
    const key = `${gameType}\u0000${currency}`;
    if (gameType && currency && seen.has(key)) row.currency = 'bo.codes.DUPLICATE';
    seen.add(key);
    return row;
  });
  return withRows({}, rows);
}

/** The body of `PUT /admin/loyalty/rates`. */
export function ratesBody(values: { items?: RateValues[] | null }): { items: LoyaltyRate[] } {
  return {
    items: (values.items ?? []).map((rate) => ({
      game_type: str(rate.game_type).trim(),
      currency: str(rate.currency).trim(),
      milli_per_unit: rate.milli_per_unit ?? 0,
    })),
  };
}

/** A level row as the form holds it. */
export interface LevelValues {
  level?: number | null;
  min_points?: number | null;
  title_en?: string | null;
  title_fr?: string | null;
  description_en?: string | null;
  description_fr?: string | null;
  image?: string | null;
  campaign_id?: number | null;
}

/** `check_levels` without the database: levels 1 to 100, each once, thresholds of 0 or more that
 * rise with the level, both titles, descriptions of 500 characters at most, an image address
 * starting with `/` or `https://`, a campaign id (the server checks it is a manual campaign). */
export function validateLevels(values: { items?: LevelValues[] | null }): ListErrors {
  const items = values.items ?? [];
  const rows: RowErrors[] = items.map((level) => {
    const row: RowErrors = {};
    if (level.level === null || level.level === undefined) row.level = req;
    else if (!isInt(level.level) || level.level < 1) row.level = minValue(1);
    else if (level.level > LOYALTY_LIMITS.level) row.level = maxValue(LOYALTY_LIMITS.level);
    if (level.min_points === null || level.min_points === undefined) row.min_points = req;
    else if (!isInt(level.min_points) || level.min_points < 0) row.min_points = minValue(0);
    for (const field of ['title_en', 'title_fr'] as const) {
      const text = str(level[field]);
      if (!text.trim()) row[field] = req;
      else if (codePoints(text) > LOYALTY_LIMITS.title) row[field] = maxLength(LOYALTY_LIMITS.title);
    }
    for (const field of ['description_en', 'description_fr'] as const) {
      if (codePoints(str(level[field])) > LOYALTY_LIMITS.levelDescription) row[field] = maxLength(LOYALTY_LIMITS.levelDescription);
    }
    const image = str(level.image).trim();
    if (image && (codePoints(image) > LOYALTY_LIMITS.image || !(image.startsWith('/') || image.startsWith('https://')))) {
      row.image = 'bo.loyalty.image_invalid';
    }
    const campaign = level.campaign_id;
    if (campaign !== null && campaign !== undefined && (!isInt(campaign) || campaign < 1)) row.campaign_id = invalid;
    return row;
  });
  // Sorted by level, each threshold above the one before (the server's order check).
  const order = items
    .map((level, index) => ({ level: level.level, min: level.min_points, index }))
    .filter((entry): entry is { level: number; min: number; index: number } => isInt(entry.level) && isInt(entry.min))
    .sort((a, b) => a.level - b.level);
  for (let i = 1; i < order.length; i += 1) {
    const before = order[i - 1];
    const current = order[i];
    if (!before || !current) continue;
    const row = rows[current.index];
    if (!row) continue;
    if (before.level === current.level) {
      if (!('level' in row)) row.level = 'bo.codes.DUPLICATE';
    }
    else if (before.min >= current.min && !('min_points' in row)) row.min_points = 'bo.loyalty.threshold_not_rising';
  }
  return withRows({}, rows);
}

/** The body of `PUT /admin/loyalty/levels`: texts trimmed, an empty image or campaign as null. */
export function levelsBody(values: { items?: LevelValues[] | null }): { items: LoyaltyLevel[] } {
  return {
    items: (values.items ?? []).map((level) => {
      const image = str(level.image).trim();
      return {
        level: level.level ?? 0,
        min_points: level.min_points ?? 0,
        title_en: str(level.title_en).trim(),
        title_fr: str(level.title_fr).trim(),
        description_en: str(level.description_en).trim(),
        description_fr: str(level.description_fr).trim(),
        image: image || null,
        campaign_id: level.campaign_id ?? null,
      };
    }),
  };
}

/** A player id typed by the operator: a positive whole number, or null. */
export function playerId(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,15}$/.test(trimmed)) return null;
  const id = Number(trimmed);
  return id > 0 ? id : null;
}
