import { vi } from 'vitest';
import type { AccountInfo } from '@/features/account/api/get-account-info';
import type { GeneralInfo } from '@/features/metadata/api/get-general-info';

export const GENERAL_INFO: GeneralInfo = {
  analytic: { gtm_id: null },
  available_currencies: ['USD', 'EUR', 'GBP', 'JPY'],
  available_locales: ['en', 'fr'],
  default_currency: 'USD',
  is_seon_enabled: false,
  domain_state: 'active',
  domain_type: 'main',
  time_to_force_logout: 1800,
  is_bonus_isolation_enabled: false,
  is_game_history_export_enabled: true,
  user_inactivity_cashier_time: 900,
  user_inactivity_pp_time: 900,
};

const zero = { amount: '0.00', currency: 'USD' };

export const GUEST: AccountInfo = {
  uid: 0,
  id: 0,
  reg_time: 0,
  login: '',
  fakename: null,
  is_subscribed: false,
  currency: null,
  balance_main: zero,
  balance_bonus: zero,
  balance_betting_bonus: zero,
  balance_fun: zero,
  is_on_verification: false,
  is_verified: false,
  is_kyc_block_enabled: false,
  is_registration_completed: false,
  country_code: null,
  locale: 'en',
  two_factor_auth: false,
};

export function player(overrides: Partial<AccountInfo> = {}): AccountInfo {
  return {
    ...GUEST,
    uid: 7,
    id: 7,
    reg_time: Math.floor(Date.now() / 1000) - 30 * 24 * 3600,
    login: 'player@example.com',
    currency: 'USD',
    balance_main: { amount: '1234.50', currency: 'USD' },
    is_subscribed: true,
    is_registration_completed: true,
    ...overrides,
  };
}

export function envelope(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function ok(data: unknown): Response {
  return envelope({ status: 'ok', data });
}

export function apiError(type: string, status: number, errorData: Record<string, unknown> = {}, message = ''): Response {
  return envelope({ status: 'error', error: { type, message, error_data: errorData } }, status);
}

/** A function of the request answering like a plain answer: data for an ok envelope, or a Response as it is. */
export type MockHandler = (request: { url: URL; body: FormData | null }) => unknown;

export interface ApiMock {
  fetch: ReturnType<typeof vi.fn<typeof fetch>>;
  /** The requests made to one API method, in order. */
  calls: (method: string) => { url: URL; body: FormData | null }[];
  /** Sets (or replaces) how a method answers. */
  on: (method: string, answer: unknown) => void;
}

/**
 * Stubs fetch with a fake of the /api surface: each method answers from `handlers`
 * (guest account and general info by default); an unknown method answers 404.
 */
export function mockApi(handlers: Record<string, unknown> = {}): ApiMock {
  const answers = new Map<string, unknown>(
    Object.entries({
      'account.getInfo': GUEST,
      'metadata.getgeneralinfo': GENERAL_INFO,
      'account.changelocale': 1,
      'events.handle': 1,
      ...handlers,
    }),
  );
  const requests: { method: string; url: URL; body: FormData | null }[] = [];
  const fetchMock = vi.fn<typeof fetch>((input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://localhost');
    const method = decodeURIComponent(url.pathname.replace(/^\/api\//, ''));
    const body = init?.body instanceof FormData ? init.body : null;
    requests.push({ method, url, body });
    if (!answers.has(method)) return Promise.resolve(apiError('MethodNotFoundException', 404));
    const answer = answers.get(method);
    const value: unknown = typeof answer === 'function' ? (answer as MockHandler)({ url, body }) : answer;
    return Promise.resolve(value instanceof Response ? value : ok(value));
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetch: fetchMock,
    calls: (method) => requests.filter((request) => request.method === method),
    on: (method, answer) => {
      answers.set(method, answer);
    },
  };
}
