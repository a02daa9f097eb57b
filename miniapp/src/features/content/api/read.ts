// Reading untrusted content values: each reader answers the value when it has the right shape,
// else undefined, so a mapping can fall back to its default field by field.

export type Doc = Readonly<Record<string, unknown>>;

export function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const nonEmptyStr = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;
export const bool = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
export const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
export const docs = (value: unknown): Doc[] | undefined => (Array.isArray(value) ? value.filter(isDoc) : undefined);

export function oneOf<T extends string>(value: unknown, allowed: readonly T[]): T | undefined {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A media field after flattening is its url; an unflattened file object still has one. */
export function mediaUrl(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (isDoc(value)) return str(value.url) ?? null;
  return null;
}
