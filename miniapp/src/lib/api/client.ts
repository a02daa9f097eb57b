import { currentLocale } from '@/lib/i18n';
import { ERROR_TYPES, type ErrorType } from './errors.gen';

/** SPEC §9: the API version sent as `v` with every call. */
export const API_VERSION = '2.34';

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Readonly<Record<string, QueryValue>>;

export type FormValue = string | number | boolean | Blob | null | undefined;
export type FormFields = Readonly<Record<string, FormValue>>;

/** error_data of the envelope: field name → the codes of what is wrong with it. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** error_data as sent: field codes plus extra values such as `resend_time`, `retry_after`, `ban_type`. */
export type ErrorData = Readonly<Record<string, unknown>>;

export interface RequestOptions {
  signal?: AbortSignal | undefined;
}

export interface PostOptions extends RequestOptions {
  /** Fields that are text inputs: sent as an empty string when absent or empty, never omitted. */
  textFields?: readonly string[];
}

const UNKNOWN_ERROR: ErrorType = 'UnknownErrorException';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly type: ErrorType;
  /** HTTP status of the answer; 0 when no answer arrived. */
  readonly status: number;
  readonly fieldErrors: FieldErrors;
  readonly data: ErrorData;

  constructor(
    type: ErrorType,
    message: string,
    status: number,
    fieldErrors: FieldErrors = {},
    options?: ErrorOptions & { data?: ErrorData },
  ) {
    super(message, options);
    this.type = type;
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.data = options?.data ?? {};
  }

  /** A number the server put in error_data (`resend_time`, `retry_after`), if any. */
  numberData(key: string): number | undefined {
    const value = this.data[key];
    return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  }

  /** A string the server put in error_data (`ban_type`), if any. */
  stringData(key: string): string | undefined {
    const value = this.data[key];
    return typeof value === 'string' ? value : undefined;
  }
}

type ApiErrorListener = (error: ApiError, method: string) => void;
const errorListeners = new Set<ApiErrorListener>();

/**
 * Hears every error answer of every call, for the global handling of SPEC §8 (banned player,
 * maintenance, forbidden). Returns the unsubscribe function.
 */
export function onApiError(listener: ApiErrorListener): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

export function toErrorType(value: unknown): ErrorType {
  return ERROR_TYPES.find((type) => type === value) ?? UNKNOWN_ERROR;
}

// The server reads flags as 1/0 (e.g. `terms=1`, `subscription=0`).
function serialize(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/** `/api/{method}` with the caller's parameters (null/undefined dropped), then `locale` and `v`. */
export function apiUrl(method: string, params: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) search.append(name, serialize(value));
  }
  search.set('locale', currentLocale());
  search.set('v', API_VERSION);
  return `/api/${encodeURIComponent(method)}?${search.toString()}`;
}

/** SPEC §7: text fields default to an empty string; any other empty field is null and left out. */
export function buildFormData(fields: FormFields = {}, textFields: readonly string[] = []): FormData {
  const form = new FormData();
  const text = new Set(textFields);
  const names = [...Object.keys(fields), ...textFields.filter((name) => !Object.hasOwn(fields, name))];
  for (const name of names) {
    const value = fields[name];
    if (value === null || value === undefined || value === '') {
      if (text.has(name)) form.append(name, '');
    } else if (value instanceof Blob) {
      form.append(name, value);
    } else {
      form.append(name, serialize(value));
    }
  }
  return form;
}

function fieldErrorsFrom(value: unknown): FieldErrors {
  if (typeof value !== 'object' || value === null) return {};
  const errors: Record<string, readonly string[]> = {};
  for (const [field, codes] of Object.entries(value)) {
    if (Array.isArray(codes)) errors[field] = codes.filter((code) => typeof code === 'string');
  }
  return errors;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

async function send<T>(method: string, url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    });
  } catch (cause) {
    // A caller that aborted (e.g. TanStack Query cancelling) expects its abort back, not an API error.
    if (init.signal?.aborted) throw cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ApiError(UNKNOWN_ERROR, `Network error calling ${method}: ${reason}`, 0, {}, { cause });
  }

  const body = await readJson(response);
  if (isRecord(body)) {
    if (body.status === 'ok' && response.ok && 'data' in body) return body.data as T;
    if (body.status === 'error' && isRecord(body.error)) {
      const { type, message, error_data: errorData } = body.error;
      throw announce(
        method,
        new ApiError(toErrorType(type), typeof message === 'string' ? message : '', response.status, fieldErrorsFrom(errorData), {
          data: isRecord(errorData) ? errorData : {},
        }),
      );
    }
  }
  throw announce(
    method,
    new ApiError(UNKNOWN_ERROR, `Unexpected answer to ${method} (HTTP ${response.status})`, response.status),
  );
}

function announce(method: string, error: ApiError): ApiError {
  for (const listener of [...errorListeners]) listener(error, method);
  return error;
}

export function apiGet<T>(method: string, params?: QueryParams, options: RequestOptions = {}): Promise<T> {
  return send<T>(method, apiUrl(method, params), { method: 'GET', signal: options.signal ?? null });
}

export function apiPost<T>(method: string, fields?: FormFields, options: PostOptions = {}): Promise<T> {
  return send<T>(method, apiUrl(method), {
    method: 'POST',
    body: buildFormData(fields, options.textFields),
    signal: options.signal ?? null,
  });
}
