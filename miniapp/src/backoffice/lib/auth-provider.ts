// Operator sign-in against `/backoffice/api/session`: e-mail and password, then the mandatory
// TOTP code. An operator who has not enrolled yet gets the enrolment (secret and QR code) instead
// of a session: `login` rejects with `EnrolmentRequired`, the sign-in page shows it and signs in
// with `{token, totp}` through `/session/enrol`. The session itself is an HttpOnly cookie the
// console never sees; the operator it belongs to is kept here for identity and permissions.
import type { AuthProvider } from 'react-admin';
import { request } from './http';
import { canAccess } from './permissions';

export interface Operator {
  id: number;
  email: string;
  name: string;
  role: string;
  permissions: string[];
  locale: 'en' | 'fr';
  disabled: boolean;
  enrolled: boolean;
  created_at: number;
  last_sign_in_at: number | null;
}

export interface Enrolment {
  token: string;
  secret: string;
  otpauth_url: string;
  qr_svg: string;
}

/** The password was right but the operator has no TOTP yet: enrol with `enrolment`. */
export class EnrolmentRequired extends Error {
  constructor(readonly enrolment: Enrolment) {
    super('bo.auth.enrol_required');
    this.name = 'EnrolmentRequired';
  }
}

export interface PasswordLogin {
  email: string;
  password: string;
  totp?: string;
}

export interface EnrolmentLogin {
  token: string;
  totp: string;
}

type SessionAnswer = { operator: Operator } | { enrolment: Enrolment };

export interface BackofficeAuthProvider extends AuthProvider {
  /** The signed-in operator, once `checkAuth` or `login` has seen one. */
  operator: () => Operator | null;
}

function statusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? (error as { status?: number }).status : undefined;
}

export function createAuthProvider(locale: () => string = () => 'en'): BackofficeAuthProvider {
  let current: Operator | null = null;

  const session = async (): Promise<Operator> => {
    if (current) return current;
    const { json } = await request('/session', { locale: locale() });
    current = (json as { operator: Operator }).operator;
    return current;
  };

  return {
    operator: () => current,
    login: async (params: PasswordLogin | EnrolmentLogin) => {
      const enrolling = 'token' in params;
      const body = enrolling
        ? { token: params.token, totp: params.totp }
        : { email: params.email, password: params.password, ...(params.totp ? { totp: params.totp } : {}) };
      const { json } = await request(enrolling ? '/session/enrol' : '/session', {
        method: 'POST',
        body,
        locale: locale(),
      });
      const answer = json as SessionAnswer;
      if ('enrolment' in answer) throw new EnrolmentRequired(answer.enrolment);
      current = answer.operator;
      return undefined;
    },
    logout: async () => {
      const signedIn = current !== null;
      current = null;
      try {
        await request('/session', { method: 'DELETE', locale: locale() });
      } catch (error) {
        // Signing out of a session that already ended is done.
        if (signedIn && statusOf(error) !== 401) throw error;
      }
      return undefined;
    },
    checkAuth: async () => {
      await session();
    },
    checkError: (error: unknown) => {
      // 401: the session ended (idle, expired, signed out elsewhere): sign in again. A 403 is a
      // refusal of one action, shown as a notification; the operator stays signed in.
      if (statusOf(error) === 401) {
        current = null;
        return Promise.reject(new Error('bo.auth.expired'));
      }
      return Promise.resolve();
    },
    getIdentity: async () => {
      const operator = await session();
      return { id: operator.id, fullName: operator.name || operator.email };
    },
    getPermissions: async () => (await session()).permissions,
    canAccess: async ({ resource, action }) => canAccess((await session()).permissions, resource, action),
  };
}
