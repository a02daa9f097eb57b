import { currentLocale } from '@/lib/i18n';

// SPEC §7 "Headless content service": a Strapi v4 REST dialect under /cms/api. SPEC §3: the
// answers are flattened — attribute wrappers removed, media fields become their url.

export const CMS_BASE = '/cms/api';

export class CmsError extends Error {
  override readonly name = 'CmsError';
  readonly status: number;
  constructor(message: string, status: number) {
    super(message);
    this.status = status;
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An upload file's attributes: what Strapi always sends for media. */
function isMedia(attributes: Record<string, unknown>): boolean {
  return typeof attributes.url === 'string' && 'mime' in attributes;
}

/**
 * Undoes Strapi's REST wrappers: `{data: x}` → x, `{id, attributes}` → `{id, ...attributes}`,
 * a media entry → its url. Plain components and scalars stay as they are.
 */
export function flatten(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(flatten);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if ('data' in value && keys.every((key) => key === 'data' || key === 'meta')) return flatten(value.data);
  if (isObject(value.attributes) && keys.every((key) => key === 'id' || key === 'attributes')) {
    if (isMedia(value.attributes)) return value.attributes.url;
    const out: Record<string, unknown> = { id: value.id };
    for (const [key, attribute] of Object.entries(value.attributes)) out[key] = flatten(attribute);
    return out;
  }
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, flatten(child)]));
}

export type CmsParams = Readonly<Record<string, string | number | undefined>>;

/** `/cms/api/{path}` with bracket-nested query parameters as given and the locale. */
export function cmsUrl(path: string, params: CmsParams = {}, locale: string | null = currentLocale()): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) search.append(name, String(value));
  }
  if (locale !== null) search.set('locale', locale);
  const query = search.toString();
  return `${CMS_BASE}/${path}${query ? `?${query}` : ''}`;
}

/** GET a content type, flattened. A 404 of a single type (nothing published) answers null. */
export async function cmsGet<T>(
  path: string,
  params: CmsParams = {},
  { signal, locale }: { signal?: AbortSignal; locale?: string | null } = {},
): Promise<T | null> {
  const response = await fetch(cmsUrl(path, params, locale === undefined ? currentLocale() : locale), {
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
    signal: signal ?? null,
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new CmsError(`content ${path} answered HTTP ${response.status}`, response.status);
  const body = (await response.json()) as Json;
  return flatten(isObject(body) ? body.data : null) as T | null;
}

/** Every content read populates the whole entry (strapi-plugin-populate-deep's syntax). */
export const DEEP = { populate: 'deep' } as const;
