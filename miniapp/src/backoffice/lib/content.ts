// The content editor's calls (`/backoffice/api/content/...`, README "Back office") and the
// conversions between stored attribute values and the form's inputs: each field kind has one
// input (text, textarea, number, switch, date, select, URL, ids, JSON) and one parse back, which
// refuses what the server would refuse for its shape (a malformed number, date or JSON) before
// anything is sent. The content service's own rules (required, unique, slugs, URLs) stay the
// server's: its refusals come back on the fields.
import { request } from './http';

export type FieldKind =
  | 'string'
  | 'richtext'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'enumeration'
  | 'media'
  | 'relation'
  | 'component'
  | 'json';

export interface ContentField {
  name: string;
  kind: FieldKind;
  required: boolean;
  unique: boolean;
  options?: string[];
  target?: string;
}

export interface ContentType {
  api_id: string;
  singular: string;
  kind: 'single' | 'collection';
  localized: boolean;
  fields: ContentField[];
}

export interface ContentRow {
  id: number;
  locale: string;
  label: string;
  translated: boolean;
  published: boolean;
  updated_at: string | null;
  locales: string[];
  preview_url: string;
}

export interface ContentEntry {
  id: number;
  api_id: string;
  locale: string;
  exists: boolean;
  published: boolean;
  data: Record<string, unknown>;
  locales: string[];
  created_at: string | null;
  updated_at: string | null;
  preview_url: string;
}

export const CONTENT_LOCALES = ['en', 'fr'] as const;

export interface ListParams {
  locale: string;
  q?: string;
  status?: '' | 'draft' | 'published';
  page: number;
  perPage: number;
  sort?: 'id' | 'label' | 'updated_at';
  order?: 'ASC' | 'DESC';
}

function path(apiId: string, id?: number | string): string {
  const base = `/content/${encodeURIComponent(apiId)}`;
  return id === undefined ? base : `${base}/${encodeURIComponent(String(id))}`;
}

/** The content API of the console, in the console's language (`lang`). */
export function contentApi(lang: () => string) {
  const call = (p: string, options: Parameters<typeof request>[1] = {}) => request(p, { ...options, locale: lang() });
  return {
    types: async () => (await call('/content/types')).json as ContentType[],
    list: async (apiId: string, params: ListParams) => {
      const filter: Record<string, string> = { locale: params.locale };
      if (params.q) filter.q = params.q;
      if (params.status) filter.status = params.status;
      const query = new URLSearchParams({
        filter: JSON.stringify(filter),
        range: JSON.stringify([(params.page - 1) * params.perPage, params.page * params.perPage - 1]),
        sort: JSON.stringify([params.sort ?? 'id', params.order ?? 'ASC']),
      });
      const { json, headers } = await call(`${path(apiId)}?${query.toString()}`);
      const total = /\/(\d+)\s*$/.exec(headers.get('Content-Range') ?? '')?.[1];
      return { rows: json as ContentRow[], total: total === undefined ? 0 : Number(total) };
    },
    get: async (apiId: string, id: number, locale: string) =>
      (await call(`${path(apiId, id)}?locale=${encodeURIComponent(locale)}`)).json as ContentEntry,
    create: async (apiId: string, body: { locale: string; data: Record<string, unknown>; publish: boolean; reason: string }) =>
      (await call(path(apiId), { method: 'POST', body })).json as ContentEntry,
    update: async (apiId: string, id: number, body: { locale: string; data: Record<string, unknown>; reason: string }) =>
      (await call(path(apiId, id), { method: 'PUT', body })).json as ContentEntry,
    remove: async (apiId: string, id: number, body: { locale?: string; reason: string }) =>
      (await call(path(apiId, id), { method: 'DELETE', body })).json,
    publication: async (apiId: string, id: number, publish: boolean, body: { locale: string; reason: string }) =>
      (await call(`${path(apiId, id)}/${publish ? 'publish' : 'unpublish'}`, { method: 'POST', body })).json as ContentEntry,
  };
}

export type ContentApi = ReturnType<typeof contentApi>;

/** What an input holds for `value` of `field`: text for everything but switches. */
export function toInput(field: ContentField, value: unknown): string | boolean {
  if (field.kind === 'boolean') return value === true;
  if (value === null || value === undefined) return '';
  switch (field.kind) {
    case 'media': {
      const first = Array.isArray(value) ? (value[0] as unknown) : value;
      if (Array.isArray(value) && value.length > 1) return JSON.stringify(value, null, 2);
      if (typeof first === 'string') return first;
      const url = (first as { url?: unknown } | null)?.url;
      return typeof url === 'string' ? url : '';
    }
    case 'relation':
      return Array.isArray(value) ? value.map((item) => JSON.stringify(item)).join(', ') : JSON.stringify(value);
    case 'component':
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'integer':
    case 'number':
      return JSON.stringify(value);
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

/** A parsed input: the value to send, or the translation key of why it cannot be. */
export type Parsed = { value: unknown } | { error: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The value to send for an input of `field`; `original` is the stored value (a media object is
 * kept as it is when its URL did not change, so its size and alternative text stay).
 */
export function fromInput(field: ContentField, input: string | boolean, original: unknown): Parsed {
  if (field.kind === 'boolean') return { value: input === true };
  const text = typeof input === 'string' ? input.trim() : '';
  if (text === '') return { value: null };
  switch (field.kind) {
    case 'integer':
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n) || (field.kind === 'integer' && !Number.isInteger(n))) return { error: 'bo.content.invalid_number' };
      return { value: n };
    }
    case 'date':
      return DATE.test(text) && !Number.isNaN(Date.parse(text)) ? { value: text } : { error: 'bo.content.invalid_date' };
    case 'datetime':
      return Number.isNaN(Date.parse(text)) ? { error: 'bo.content.invalid_date' } : { value: new Date(text).toISOString() };
    case 'enumeration':
      return field.options?.includes(text) ? { value: text } : { error: 'bo.codes.INVALID' };
    case 'relation': {
      const ids = text.split(',').map((part) => part.trim()).filter(Boolean).map(Number);
      if (ids.some((id) => !Number.isInteger(id) || id <= 0)) return { error: 'bo.content.invalid_ids' };
      return { value: Array.isArray(original) ? ids : ids[0] };
    }
    case 'media': {
      if (text.startsWith('[') || text.startsWith('{')) return parseJson(text);
      const url = (original as { url?: unknown } | null)?.url;
      return { value: url === text ? original : text };
    }
    case 'component':
    case 'json':
      return parseJson(text);
    default:
      return { value: typeof input === 'string' ? input : '' };
  }
}

function parseJson(text: string): Parsed {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return { error: 'bo.content.invalid_json' };
  }
}

/**
 * The attributes to send for the form's `inputs`: only the fields that changed (the server keeps
 * the others), and every field for a new entry or a new translation. Answers the errors by field
 * when an input cannot be parsed.
 */
export function formData(
  fields: ContentField[],
  inputs: Record<string, string | boolean>,
  stored: Record<string, unknown>,
  everything: boolean,
): { data: Record<string, unknown>; errors: Record<string, string> } {
  const data: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const input = inputs[field.name];
    if (input === undefined) continue;
    const parsed = fromInput(field, input, stored[field.name]);
    if ('error' in parsed) {
      errors[field.name] = parsed.error;
      continue;
    }
    const before = stored[field.name] ?? (field.kind === 'boolean' ? false : null);
    if (everything || JSON.stringify(parsed.value) !== JSON.stringify(before)) {
      const absent = !(field.name in stored) && (parsed.value === null || parsed.value === false);
      if (!absent) data[field.name] = parsed.value;
    }
  }
  return { data, errors };
}
