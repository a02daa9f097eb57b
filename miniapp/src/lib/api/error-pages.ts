import { createStore } from '@/lib/store';
import { ApiError, onApiError } from './client';

/** The system pages an error can lead to (SPEC §2, §4, §8). */
export type ErrorPageType = 'maintenance' | 'notFound' | 'forbidden' | 'userBlocked';

export interface ErrorPage {
  type: ErrorPageType;
  /** For a banned player: the ban type the server sent. */
  banType?: string | undefined;
}

const MAINTENANCE_TYPES = new Set(['ApplicationDisabledException', 'ApplicationUnavailableException']);

/**
 * SPEC §8 global handling: a failed answer that replaces whatever page is shown — a banned
 * player, a disabled or unavailable site, any HTTP 403. Other failures are the caller's business.
 */
export function globalErrorPage(error: ApiError): ErrorPage | null {
  if (error.type === 'UserBannedException') return { type: 'userBlocked', banType: error.stringData('ban_type') };
  if (MAINTENANCE_TYPES.has(error.type)) return { type: 'maintenance' };
  if (error.status === 403) return { type: 'forbidden' };
  return null;
}

/**
 * SPEC §4 error page mapping, for a page that could not be loaded: banned → user blocked,
 * 404 → not found, 403 → forbidden, 503 → maintenance, any other status → not found.
 * `null` for a failure that is not an answer of the server (a bug): the generic error page.
 */
export function errorPageFor(error: unknown): ErrorPage | null {
  const status = statusOf(error);
  if (status === null) return null;
  if (error instanceof ApiError) {
    const global = globalErrorPage(error);
    if (global) return global;
  }
  if (status === 403) return { type: 'forbidden' };
  if (status === 503) return { type: 'maintenance' };
  return { type: 'notFound' };
}

function statusOf(error: unknown): number | null {
  if (error instanceof ApiError) return error.status;
  // react-router's `data(…, { status })` / thrown Response errors.
  if (typeof error === 'object' && error !== null && 'status' in error && typeof error.status === 'number') {
    return error.status;
  }
  return null;
}

/** The page-replacing error, once one happened; it stays until the page is reloaded. */
export const fatalErrorStore = createStore<ErrorPage | null>(null);

/** Routes every API failure through SPEC §8's global handling. Returns the uninstall function. */
export function installGlobalErrorHandling(): () => void {
  return onApiError((error) => {
    const page = globalErrorPage(error);
    if (page && !fatalErrorStore.get()) fatalErrorStore.set(page);
  });
}
