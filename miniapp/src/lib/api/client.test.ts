import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { API_VERSION, ApiError, apiGet, apiPost, apiUrl, buildFormData, onApiError, toErrorType } from './client';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function mockFetch(response: Response | Error) {
  const fetchMock = vi.fn<typeof fetch>(() =>
    response instanceof Error ? Promise.reject(response) : Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function requestOf(fetchMock: ReturnType<typeof mockFetch>): { url: URL; init: RequestInit } {
  const [input, init] = fetchMock.mock.calls[0] ?? [];
  if (typeof input !== 'string') throw new Error('fetch was not called with a URL string');
  return { url: new URL(input, 'http://localhost'), init: init ?? {} };
}

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

beforeEach(async () => {
  await activateLocale('en');
});

afterEach(async () => {
  await activateLocale('en');
});

describe('apiUrl', () => {
  it('adds the current locale and the API version to every call', async () => {
    expect(apiUrl('metadata.getgeneralinfo')).toBe(`/api/metadata.getgeneralinfo?locale=en&v=${API_VERSION}`);

    await activateLocale('fr');
    expect(apiUrl('metadata.getgeneralinfo')).toBe('/api/metadata.getgeneralinfo?locale=fr&v=2.34');
  });

  it('drops null and undefined parameters and keeps falsy values that are set', () => {
    const url = new URL(
      apiUrl('cashbacks.get', { offset: 0, count: 4, sort: null, order: undefined, statuses: '', paid: false }),
      'http://localhost',
    );
    expect(url.pathname).toBe('/api/cashbacks.get');
    expect([...url.searchParams.entries()]).toEqual([
      ['offset', '0'],
      ['count', '4'],
      ['statuses', ''],
      ['paid', '0'],
      ['locale', 'en'],
      ['v', '2.34'],
    ]);
  });

  it('does not let a caller override locale or v', () => {
    const url = new URL(apiUrl('games.get', { locale: 'de', v: '1' }), 'http://localhost');
    expect(url.searchParams.getAll('locale')).toEqual(['en']);
    expect(url.searchParams.getAll('v')).toEqual(['2.34']);
  });
});

describe('buildFormData', () => {
  it('sends text fields as an empty string when they are empty or absent', () => {
    const form = buildFormData({ login: 'player@example.com', password: null, code: undefined }, [
      'login',
      'password',
      'code',
      'fakename',
    ]);
    expect([...form.entries()]).toEqual([
      ['login', 'player@example.com'],
      ['password', ''],
      ['code', ''],
      ['fakename', ''],
    ]);
  });

  it('leaves out other fields that are empty', () => {
    const form = buildFormData({ bonus_id: null, offer_id: undefined, promo_code: '', amount: 50 });
    expect([...form.entries()]).toEqual([['amount', '50']]);
  });

  it('sends flags as 1 or 0 and files as files', () => {
    const file = new File(['scan'], 'passport.png', { type: 'image/png' });
    const form = buildFormData({ terms: true, subscription: false, document: file });
    expect(form.get('terms')).toBe('1');
    expect(form.get('subscription')).toBe('0');
    const sent = form.get('document');
    expect(sent).toBeInstanceOf(File);
    expect((sent as File).name).toBe('passport.png');
  });
});

describe('apiGet', () => {
  it('calls /api/{method} with the query, same-origin credentials, and answers the envelope data', async () => {
    const fetchMock = mockFetch(jsonResponse({ status: 'ok', data: { default_currency: 'USD' } }));

    const data = await apiGet<{ default_currency: string }>('metadata.getgeneralinfo', { fields: 'id' });

    expect(data).toEqual({ default_currency: 'USD' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const { url, init } = requestOf(fetchMock);
    expect(url.pathname).toBe('/api/metadata.getgeneralinfo');
    expect(url.search).toBe('?fields=id&locale=en&v=2.34');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
  });

  it('answers data that is a bare value', async () => {
    mockFetch(jsonResponse({ status: 'ok', data: 1 }));
    await expect(apiGet('account.saveProfileInfo')).resolves.toBe(1);
  });
});

describe('apiPost', () => {
  it('posts form data built by the SPEC rules to /api/{method} with locale and v', async () => {
    const fetchMock = mockFetch(jsonResponse({ status: 'ok', data: 1 }));

    await apiPost('account.changeSubscription', { contact: 'a@b.c', subscription: true, note: null }, {
      textFields: ['contact'],
    });

    const { url, init } = requestOf(fetchMock);
    expect(url.pathname).toBe('/api/account.changeSubscription');
    expect(url.search).toBe('?locale=en&v=2.34');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBeInstanceOf(FormData);
    expect([...(init.body as FormData).entries()]).toEqual([
      ['contact', 'a@b.c'],
      ['subscription', '1'],
    ]);
  });
});

describe('errors', () => {
  it('turns an error envelope into an ApiError with its type, message, status and field errors', async () => {
    mockFetch(
      jsonResponse(
        {
          status: 'error',
          error: {
            type: 'InvalidParameterException',
            message: 'Vérifiez les champs',
            error_data: { email: ['REQUIRED'], password: ['MIN_LENGTH', 'PASSWORD'] },
          },
        },
        422,
      ),
    );

    const error = await caught(apiPost('auth.register', { email: '' }, { textFields: ['email'] }));

    expect(error).toBeInstanceOf(ApiError);
    expect(error.type).toBe('InvalidParameterException');
    expect(error.message).toBe('Vérifiez les champs');
    expect(error.status).toBe(422);
    expect(error.fieldErrors).toEqual({ email: ['REQUIRED'], password: ['MIN_LENGTH', 'PASSWORD'] });
  });

  it('keeps the extra values of error_data (resend_time, retry_after, ban_type) apart from the field codes', async () => {
    mockFetch(
      jsonResponse(
        {
          status: 'error',
          error: {
            type: 'InvalidParameterException',
            message: 'Two-factor',
            error_data: { code: ['TWO_FACTOR_REQUIRED'], resend_time: 60, ban_type: 'temporary' },
          },
        },
        422,
      ),
    );

    const error = await caught(apiPost('auth.login', { login: 'a@b.co', password: 'secret1' }));

    expect(error.fieldErrors).toEqual({ code: ['TWO_FACTOR_REQUIRED'] });
    expect(error.numberData('resend_time')).toBe(60);
    expect(error.stringData('ban_type')).toBe('temporary');
    expect(error.numberData('retry_after')).toBeUndefined();
  });

  it('tells the listeners of every failed answer', async () => {
    const heard = vi.fn();
    const stop = onApiError(heard);
    mockFetch(jsonResponse({ status: 'error', error: { type: 'AccessDeniedException', message: '', error_data: {} } }, 403));

    await caught(apiGet('account.getprofileinfo'));
    stop();
    mockFetch(jsonResponse({ status: 'error', error: { type: 'AccessDeniedException', message: '', error_data: {} } }, 403));
    await caught(apiGet('account.getprofileinfo'));

    expect(heard).toHaveBeenCalledTimes(1);
    expect(heard.mock.calls[0]?.[1]).toBe('account.getprofileinfo');
  });

  it('maps an error type the client does not know to UnknownErrorException', async () => {
    mockFetch(
      jsonResponse({ status: 'error', error: { type: 'BrandNewException', message: 'Nope', error_data: {} } }, 409),
    );

    const error = await caught(apiGet('games.get'));

    expect(error.type).toBe('UnknownErrorException');
    expect(error.message).toBe('Nope');
    expect(error.status).toBe(409);
    expect(error.fieldErrors).toEqual({});
  });

  it('reports a network failure as UnknownErrorException with status 0', async () => {
    mockFetch(new TypeError('Failed to fetch'));

    const error = await caught(apiGet('account.getInfo'));

    expect(error.type).toBe('UnknownErrorException');
    expect(error.status).toBe(0);
    expect(error.message).toContain('Failed to fetch');
  });

  it('reports an answer that is not an envelope as UnknownErrorException with its status', async () => {
    mockFetch(new Response('<html>Bad gateway</html>', { status: 502 }));

    const error = await caught(apiGet('account.getInfo'));

    expect(error.type).toBe('UnknownErrorException');
    expect(error.status).toBe(502);
  });

  it('lets an aborted request reject with the abort reason, not as an API error', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled by the caller');
    controller.abort(reason);
    mockFetch(reason);

    await expect(apiGet('account.getInfo', {}, { signal: controller.signal })).rejects.toBe(reason);
  });

  it('knows every catalogue type and nothing else', () => {
    expect(toErrorType('UserBannedException')).toBe('UserBannedException');
    expect(toErrorType('userbannedexception')).toBe('UnknownErrorException');
    expect(toErrorType(undefined)).toBe('UnknownErrorException');
  });
});
