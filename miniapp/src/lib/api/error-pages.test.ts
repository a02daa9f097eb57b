import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiGet } from './client';
import { errorPageFor, fatalErrorStore, globalErrorPage, installGlobalErrorHandling } from './error-pages';

const error = (type: ConstructorParameters<typeof ApiError>[0], status: number, data = {}) =>
  new ApiError(type, '', status, {}, { data });

afterEach(() => {
  fatalErrorStore.set(null);
});

describe('global error handling (SPEC §8)', () => {
  it('sends a banned player to the user blocked page with the ban type', () => {
    expect(globalErrorPage(error('UserBannedException', 403, { ban_type: 'permanent' }))).toEqual({
      type: 'userBlocked',
      banType: 'permanent',
    });
  });

  it('shows maintenance when the application is disabled or unavailable', () => {
    expect(globalErrorPage(error('ApplicationDisabledException', 503))).toEqual({ type: 'maintenance' });
    expect(globalErrorPage(error('ApplicationUnavailableException', 503))).toEqual({ type: 'maintenance' });
  });

  it('shows forbidden for any 403', () => {
    expect(globalErrorPage(error('AccessDeniedException', 403))).toEqual({ type: 'forbidden' });
  });

  it('leaves other failures to their caller', () => {
    expect(globalErrorPage(error('InvalidParameterException', 422))).toBeNull();
    expect(globalErrorPage(error('MethodNotFoundException', 404))).toBeNull();
  });

  it('replaces the page when any call answers so', async () => {
    const uninstall = installGlobalErrorHandling();
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() =>
        Promise.resolve(
          new Response(
            JSON.stringify({
              status: 'error',
              error: { type: 'UserBannedException', message: 'Banned', error_data: { ban_type: 'fraud' } },
            }),
            { status: 403 },
          ),
        ),
      ),
    );
    await expect(apiGet('account.getInfo')).rejects.toBeInstanceOf(ApiError);
    expect(fatalErrorStore.get()).toEqual({ type: 'userBlocked', banType: 'fraud' });
    uninstall();
  });
});

describe('error page mapping of a page that failed (SPEC §4)', () => {
  it('maps banned, 404, 403, 503 and any other status', () => {
    expect(errorPageFor(error('UserBannedException', 403))?.type).toBe('userBlocked');
    expect(errorPageFor(error('MethodNotFoundException', 404))?.type).toBe('notFound');
    expect(errorPageFor(error('AccessDeniedException', 403))?.type).toBe('forbidden');
    expect(errorPageFor(error('ApplicationUnavailableException', 503))?.type).toBe('maintenance');
    expect(errorPageFor(error('InternalServerErrorException', 500))?.type).toBe('notFound');
    expect(errorPageFor({ status: 404, statusText: 'Not Found' })?.type).toBe('notFound');
  });

  it('leaves a bug (not an answer of the server) to the generic error page', () => {
    expect(errorPageFor(new TypeError('x is undefined'))).toBeNull();
  });
});
