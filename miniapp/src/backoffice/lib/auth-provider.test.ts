import { HttpError } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createAuthProvider, EnrolmentRequired, type Operator } from './auth-provider';
import { errorResponse, jsonResponse, stubFetch } from './test-fetch';

const operator: Operator = {
  id: 4,
  email: 'fin@example.com',
  name: 'Fin Ance',
  role: 'finance',
  permissions: ['players.read', 'balance.correct', 'balance.approve', 'withdrawals.read', 'withdrawals.decide'],
  locale: 'en',
  disabled: false,
  enrolled: true,
  created_at: 1_700_000_000,
  last_sign_in_at: null,
};

const enrolment = {
  token: 'opaque-token',
  secret: 'JBSWY3DPEHPK3PXP',
  otpauth_url: 'otpauth://totp/Croupier:new@example.com?secret=JBSWY3DPEHPK3PXP&issuer=Croupier',
  qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"></svg>',
};

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('the auth provider', () => {
  it('signs in with e-mail, password and code, then knows the operator without asking again', async () => {
    const calls = stubFetch(jsonResponse({ operator }));
    const auth = createAuthProvider(() => 'fr');
    await auth.login({ email: 'fin@example.com', password: 'correct horse battery', totp: '123456' });
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/session');
    expect(calls[0]?.body).toEqual({ email: 'fin@example.com', password: 'correct horse battery', totp: '123456' });
    expect(calls[0]?.headers.get('Accept-Language')).toBe('fr');
    await auth.checkAuth({});
    expect(await auth.getPermissions?.({})).toEqual(operator.permissions);
    expect(await auth.getIdentity?.()).toEqual({ id: 4, fullName: 'Fin Ance' });
    expect(calls).toHaveLength(1);
  });

  it('sends no totp when none is typed, and passes the server’s REQUIRED on as a field error', async () => {
    const calls = stubFetch(errorResponse(400, 'InvalidParameterException', 'Code required', { totp: ['REQUIRED'] }));
    const error = await failure(createAuthProvider().login({ email: 'a@example.com', password: 'pw', totp: '' }));
    expect(calls[0]?.body).toEqual({ email: 'a@example.com', password: 'pw' });
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).body).toMatchObject({ errors: { totp: 'bo.codes.REQUIRED' } });
  });

  it('answers the enrolment of an operator without TOTP as EnrolmentRequired, then enrols with the first code', async () => {
    const calls = stubFetch(jsonResponse({ enrolment }), jsonResponse({ operator }));
    const auth = createAuthProvider();
    const error = await failure(auth.login({ email: 'new@example.com', password: 'a long password' }));
    expect(error).toBeInstanceOf(EnrolmentRequired);
    expect((error as EnrolmentRequired).enrolment).toEqual(enrolment);
    expect(auth.operator()).toBeNull();

    await auth.login({ token: enrolment.token, totp: '654321' });
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/session/enrol');
    expect(calls[1]?.body).toEqual({ token: 'opaque-token', totp: '654321' });
    expect(auth.operator()?.email).toBe('fin@example.com');
  });

  it('refuses checkAuth without a session (401)', async () => {
    stubFetch(errorResponse(401, 'AuthorizationException', 'Sign in'));
    const error = await failure(createAuthProvider().checkAuth({}));
    expect((error as HttpError).status).toBe(401);
  });

  it('signs out on a 401 from any call and stays signed in on a 403', async () => {
    const calls = stubFetch(jsonResponse({ operator }), jsonResponse({ operator }));
    const auth = createAuthProvider();
    await auth.checkAuth({});
    await expect(auth.checkError(new HttpError('Not allowed', 403))).resolves.toBeUndefined();
    expect(auth.operator()).not.toBeNull();
    await expect(auth.checkError(new HttpError('Expired', 401))).rejects.toThrow();
    expect(auth.operator()).toBeNull();
    // The next check asks the server again.
    await auth.checkAuth({});
    expect(calls).toHaveLength(2);
  });

  it('signs out with DELETE /session, and an already ended session is fine', async () => {
    const calls = stubFetch(jsonResponse({ operator }), jsonResponse(null, 204), errorResponse(401, 'AuthorizationException', 'gone'));
    const auth = createAuthProvider();
    await auth.checkAuth({});
    await auth.logout({});
    expect(calls[1]?.method).toBe('DELETE');
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/session');
    expect(auth.operator()).toBeNull();
    await expect(auth.logout({})).resolves.toBeUndefined();
  });

  it('answers canAccess from the operator’s permissions', async () => {
    stubFetch(jsonResponse({ operator }));
    const auth = createAuthProvider();
    const access = (resource: string, action: string) => auth.canAccess?.({ resource, action });
    expect(await access('withdrawals', 'list')).toBe(true);
    expect(await access('corrections', 'create')).toBe(true);
    expect(await access('operators', 'list')).toBe(false);
    expect(await access('audit', 'list')).toBe(false);
    expect(await access('campaigns', 'list')).toBe(false);
  });
});
