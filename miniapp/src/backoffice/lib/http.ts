// One fetch for the whole console: JSON in and out of `/backoffice/api`, same-origin (the operator
// cookie, Path=/backoffice, rides along), and the project's error envelope turned into
// react-admin's HttpError so notifications show the server's localized message and forms show
// each field's error.
import { HttpError } from 'react-admin';

/** A form's values, as react-admin's forms hand them over. */
export type FieldValues = Record<string, unknown>;

export const API_ROOT = '/backoffice/api';

/** The error envelope every server error answers (DESIGN.md "API envelope"). */
export interface ErrorEnvelope {
  status: 'error';
  error: { type: string; message: string; error_data?: Record<string, string[]> };
}

/** What a console HttpError carries in `body`: the envelope's parts plus react-admin's `errors`. */
export interface ErrorBody {
  type: string;
  error_data: Record<string, string[]>;
  /** Field → translation key of its first code, the shape react-admin's forms read. */
  errors: Record<string, string>;
}

/** Field codes the console has words for; any other code is shown as the server sent it. */
export const KNOWN_CODES = [
  'REQUIRED',
  'INVALID',
  'MIN_LENGTH',
  'MAX_LENGTH',
  'MIN_VALUE',
  'MAX_VALUE',
  'EMAIL',
  'PASSWORD',
  'NOT_FOUND',
  'DUPLICATE',
  'TAKEN',
  'UNSUPPORTED',
  'LOCKED',
  'FOUR_EYES',
  'STALE',
  'INSUFFICIENT_FUNDS',
  'WRONG_CREDENTIALS',
  'CODE_INVALID',
  'CODE_EXPIRED',
  'DATE',
  'PROMO_NOT_ELIGIBLE',
] as const;

const known = new Set<string>(KNOWN_CODES);

/** The translation key of a field code (`bo.codes.REQUIRED`), or the bare code when unknown. */
export function codeMessage(code: string): string {
  return known.has(code) ? `bo.codes.${code}` : code;
}

function isEnvelope(value: unknown): value is ErrorEnvelope {
  if (typeof value !== 'object' || value === null) return false;
  const error = (value as { error?: unknown }).error;
  return (
    (value as { status?: unknown }).status === 'error' &&
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}

/** The HttpError for a failed answer: the envelope's message, type and field errors. */
export function errorFromAnswer(status: number, body: unknown, statusText = ''): HttpError {
  if (!isEnvelope(body)) {
    return new HttpError(statusText || `HTTP ${String(status)}`, status, {
      type: 'UnknownErrorException',
      error_data: {},
      errors: {},
    } satisfies ErrorBody);
  }
  const errorData = body.error.error_data ?? {};
  const errors: Record<string, string> = {};
  for (const [field, codes] of Object.entries(errorData)) {
    const first = codes[0];
    if (first !== undefined) errors[field] = codeMessage(first);
  }
  // A save over someone else's (`version: ["STALE"]`) has no field on the form to show it: it
  // is the notification's message.
  const stale = Object.values(errorData).some((codes) => Array.isArray(codes) && codes[0] === 'STALE');
  return new HttpError(stale ? codeMessage('STALE') : body.error.message, status, {
    type: body.error.type,
    error_data: errorData,
    errors,
  } satisfies ErrorBody);
}

export interface Answer {
  status: number;
  headers: Headers;
  json: unknown;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Accept-Language of the call, so the server's messages come in the console's language. */
  locale?: string;
}

/** Calls `API_ROOT + path`; answers the parsed JSON (null for an empty body) or throws an HttpError. */
export async function request(path: string, options: RequestOptions = {}): Promise<Answer> {
  const headers = new Headers({ Accept: 'application/json' });
  if (options.locale) headers.set('Accept-Language', options.locale);
  const init: RequestInit = { method: options.method ?? 'GET', headers, credentials: 'same-origin' };
  if (options.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    init.body = JSON.stringify(options.body);
  }
  const response = await fetch(`${API_ROOT}${path}`, init);
  const text = await response.text();
  let json: unknown = null;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      json = null;
    }
  }
  if (!response.ok) throw errorFromAnswer(response.status, json, response.statusText);
  return { status: response.status, headers: response.headers, json };
}
