import { afterEach, describe, expect, it, vi } from 'vitest';
import { openSocialSignIn, popupFeatures, readSocialMessage, socialSignInUrl } from './social-sign-in';

describe('social sign-in popup (SPEC §7, §9)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('opens /oauth/init with service, redirect_url and type_auth in a centred 640×480 window', () => {
    expect(socialSignInUrl('openid', 'registration', '/promotions?x=1', 'fr')).toBe(
      '/oauth/init?service=openid&redirect_url=%2Fpromotions%3Fx%3D1&type_auth=registration&locale=fr',
    );
    expect(popupFeatures(100, 50, 1280, 800)).toBe('popup=yes,width=640,height=480,left=420,top=210');
  });

  it('believes only same-origin messages of the callback page', () => {
    const message = { type: 'croupier:oauth', status: 'ok', is_registration_completed: false, redirect_url: '/' };
    expect(readSocialMessage(new MessageEvent('message', { data: message, origin: 'https://evil.example' }), 'http://localhost')).toBeNull();
    expect(readSocialMessage(new MessageEvent('message', { data: { type: 'other' }, origin: 'http://localhost' }), 'http://localhost')).toBeNull();
    expect(readSocialMessage(new MessageEvent('message', { data: message, origin: 'http://localhost' }), 'http://localhost')).toEqual({
      status: 'ok',
      isRegistrationCompleted: false,
      redirectUrl: '/',
    });
    expect(
      readSocialMessage(
        new MessageEvent('message', { data: { type: 'croupier:oauth', status: 'error', error: 'denied' }, origin: 'http://localhost' }),
        'http://localhost',
      ),
    ).toEqual({ status: 'error', error: 'denied' });
  });

  it('resolves with what the popup reports', async () => {
    const open = vi.fn(() => ({ closed: false }));
    vi.stubGlobal('open', open);
    const result = openSocialSignIn('openid', 'authorization', '/', 'en');
    expect(open).toHaveBeenCalledWith(
      '/oauth/init?service=openid&redirect_url=%2F&type_auth=authorization&locale=en',
      'croupier-social-sign-in',
      expect.stringContaining('width=640,height=480'),
    );
    window.dispatchEvent(
      new MessageEvent('message', { data: { type: 'croupier:oauth', status: 'error', error: 'unknown_provider' }, origin: window.location.origin }),
    );
    await expect(result).resolves.toEqual({ status: 'error', error: 'unknown_provider' });
  });
});
