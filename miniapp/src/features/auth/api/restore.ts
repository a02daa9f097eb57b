import { apiPost } from '@/lib/api/client';
import { normalizeLogin } from './login';

/** Step one: sends a code to the account's login contact (answers 1 whether or not it exists). */
export function requestRestoreCode(login: string): Promise<1> {
  return apiPost<1>('auth.restore', { login: normalizeLogin(login) }, { textFields: ['login'] });
}

export interface RestoreInput {
  login: string;
  code: string;
  password: string;
  password_repeat: string;
}

/** Step two: sets the new password with the code; the player is then signed in. */
export function restorePassword({ login, code, password, password_repeat }: RestoreInput): Promise<1> {
  return apiPost<1>(
    'auth.restore',
    { login: normalizeLogin(login), code: code.trim(), password, password_repeat },
    { textFields: ['login', 'code', 'password', 'password_repeat'] },
  );
}
