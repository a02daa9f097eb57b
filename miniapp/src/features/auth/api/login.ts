import { trackEvent } from '@/lib/analytics';
import { ApiError, apiPost } from '@/lib/api/client';
import type { AccountInfo } from '@/features/account';

export interface LoginInput {
  login: string;
  password: string;
  /** The two-factor code, in the second step. */
  code?: string;
}

/** SPEC §7: the login is sent without a leading +. */
export function normalizeLogin(login: string): string {
  return login.trim().replace(/^\+/, '');
}

/** SPEC §8: a failed login fires an error-login event with the error code, then fails as it came. */
export async function login({ login: name, password, code }: LoginInput): Promise<AccountInfo> {
  try {
    return await apiPost<AccountInfo>(
      'auth.login',
      { login: normalizeLogin(name), password, code },
      { textFields: ['login', 'password', 'code'] },
    );
  } catch (error) {
    const codes = error instanceof ApiError ? Object.values(error.fieldErrors).flat() : [];
    trackEvent('error-login', { code: codes[0] ?? (error instanceof ApiError ? error.type : 'UnknownErrorException') });
    throw error;
  }
}
