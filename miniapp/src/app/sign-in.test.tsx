import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AccountInfo } from '@/features/account/api/get-account-info';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, GUEST, mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

/** A fake server session: account.getInfo answers whoever signed in last. */
function session(initial: AccountInfo = GUEST) {
  let current = initial;
  return {
    getInfo: () => current,
    signIn: (account: AccountInfo) => {
      current = account;
      return account;
    },
    signOut: () => {
      current = GUEST;
      return 1;
    },
  };
}

/** Types into a field of the dialog, once its (lazily loaded) form is there. */
async function type(label: string, value: string, container: HTMLElement) {
  fireEvent.change(await within(container).findByLabelText(label), { target: { value } });
}

describe('guard and return after sign-in', () => {
  it('sends a guest to /?redirectUrl=…, asks to sign in, then goes to the page asked for', async () => {
    const server = session();
    const signedIn = player();
    const api = mockApi({
      'account.getInfo': server.getInfo,
      'auth.login': () => server.signIn(signedIn),
      'account.getprofileinfo': { contacts: [] },
    });
    const { router } = renderApp('/profile/settings?from=menu');

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    expect(router.state.location.search).toBe(`?redirectUrl=${encodeURIComponent('/profile/settings?from=menu')}`);
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });

    await type('Email or phone', '+15551234567', dialog);
    await type('Password', 'secret12', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/profile/settings');
    });
    expect(router.state.location.search).toBe('?from=menu');
    expect(await screen.findByTestId('profile-profileSettings')).toHaveAttribute('data-route', 'profile-settings');
    expect(screen.queryByRole('dialog')).toBeNull();
    // SPEC §7: the login goes without its leading +.
    expect(api.calls('auth.login')[0]?.body?.get('login')).toBe('15551234567');
  });
});

describe('two-factor sign-in', () => {
  it('asks for the code with a resend countdown, shows a wrong code on the field, then signs in', async () => {
    const server = session();
    let attempts = 0;
    const api = mockApi({
      'account.getInfo': server.getInfo,
      'account.getprofileinfo': { contacts: [] },
      'auth.login': ({ body }: { body: FormData | null }) => {
        attempts += 1;
        const code = body?.get('code');
        if (!code) return apiError('InvalidParameterException', 422, { code: ['TWO_FACTOR_REQUIRED'], resend_time: 60 });
        if (code !== '123456') return apiError('InvalidParameterException', 422, { code: ['CODE_INVALID'] });
        return server.signIn(player({ two_factor_auth: true }));
      },
    });
    const { router } = renderApp('/promotions?show_popup_auth=1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });

    await type('Email or phone', 'player@example.com', dialog);
    await type('Password', 'secret12', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    expect(await within(dialog).findByRole('heading', { name: 'Two-factor sign-in' })).toBeVisible();
    expect(await within(dialog).findByTestId('resend-countdown')).toHaveTextContent('New code available in 60 s');

    await type('Code', '12345', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The code must contain 6 digits')).toBeVisible();

    await type('Code', '654321', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Code invalid')).toBeVisible();

    await type('Code', '123456', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    expect(router.state.location.pathname).toBe('/');
    expect(attempts).toBe(3);
    const last = api.calls('auth.login').at(-1)?.body;
    expect([last?.get('login'), last?.get('password'), last?.get('code')]).toEqual([
      'player@example.com',
      'secret12',
      '123456',
    ]);
  });

  it('restarts the countdown from the resend time the server gives', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockApi({
      'auth.login': ({ body }: { body: FormData | null }) =>
        body?.get('code')
          ? apiError('InvalidParameterException', 422, { code: ['CODE_EXPIRED'] })
          : apiError('InvalidParameterException', 422, { code: ['RESEND_TIME'], resend_time: 2 }),
    });
    renderApp('/?show_popup_auth=1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await type('Email or phone', 'player@example.com', dialog);
    await type('Password', 'secret12', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));
    expect(await within(dialog).findByTestId('resend-countdown')).toHaveTextContent('New code available in 2 s');

    await act(async () => {
      await vi.advanceTimersByTimeAsync(2_500);
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send a new code' }));
    expect(await within(dialog).findByTestId('resend-countdown')).toHaveTextContent('New code available in 2 s');
    vi.useRealTimers();
  });
});

describe('registration', () => {
  it('shows the server field errors on their fields, in French', async () => {
    mockApi({
      'auth.register': apiError('InvalidParameterException', 422, {
        email: ['TAKEN'],
        password: ['MIN_LENGTH'],
      }),
    });
    renderApp('/fr?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Inscription' });

    await type('E-mail', 'taken@example.com', dialog);
    await type('Mot de passe', 'secret12', dialog);
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Créer mon compte' }));

    expect(await within(dialog).findByText('Déjà utilisé par un autre compte')).toBeVisible();
    expect(within(dialog).getByText('La longueur minimale est de 6')).toBeVisible();
  });

  it('checks the form before sending it', async () => {
    const api = mockApi();
    renderApp('/?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Register' });
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Create my account' }));

    expect(await within(dialog).findByText('Insert email')).toBeVisible();
    expect(within(dialog).getByText('Field is required')).toBeVisible();
    expect(within(dialog).getByText('Unchecked checkbox')).toBeVisible();
    expect(api.calls('auth.register')).toHaveLength(0);
  });

  it('registers with the remembered promo code and tracking parameters, then goes home signed in', async () => {
    const server = session();
    const api = mockApi({
      'account.getInfo': server.getInfo,
      'account.getprofileinfo': { contacts: [] },
      'cashier.gethistory': { total: 0, items: [] },
      'auth.register': () => server.signIn(player({ login: 'new@example.com', reg_time: Math.floor(Date.now() / 1000) })),
    });
    const { router } = renderApp('/promotions?show_popup_reg=1&promo_code=WELCOME&track_id=td_9');
    const dialog = await screen.findByRole('dialog', { name: 'Register' });
    expect(await within(dialog).findByLabelText('Promo code')).toHaveValue('WELCOME');

    await type('Email', 'new@example.com', dialog);
    await type('Password', 'secret12', dialog);
    fireEvent.change(within(dialog).getByLabelText('Currency'), { target: { value: 'EUR' } });
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Create my account' }));

    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/');
    });
    const body = api.calls('auth.register')[0]?.body;
    expect(Object.fromEntries(body?.entries() ?? [])).toMatchObject({
      email: 'new@example.com',
      password: 'secret12',
      currency: 'EUR',
      terms: '1',
      promo_code: 'WELCOME',
      track_id: 'td_9',
    });
    expect(await screen.findByTestId('header-balance')).toHaveTextContent('$1,234.50');
    expect(await screen.findByTestId('registration-hint')).toBeVisible();
  });
});

describe('sign-in popups from the address (SPEC §2)', () => {
  it('show_popup_reg opens registration, is kept in local storage, and leaves address and storage on close', async () => {
    mockApi();
    const { router } = renderApp('/promotions?show_popup_reg=1&track_id=abc');
    const dialog = await screen.findByRole('dialog', { name: 'Register' });
    expect(window.localStorage.getItem('show_popup_reg')).toBe('1');

    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));

    await waitFor(() => {
      expect(router.state.location.search).toBe('?track_id=abc');
    });
    expect(router.state.location.pathname).toBe('/promotions');
    expect(window.localStorage.getItem('show_popup_reg')).toBeNull();
    expect(screen.queryByRole('dialog')).toBeNull();
    // The tracking parameters went to the tag manager and are kept for the registration.
    expect(window.dataLayer).toContainEqual({ event: 'tracking', track_id: 'abc', show_popup_reg: '1' });
    expect(JSON.parse(window.localStorage.getItem('tracking_params') ?? '{}')).toEqual({ track_id: 'abc', show_popup_reg: '1' });
  });

  it('reopens registration from local storage on a later visit', async () => {
    window.localStorage.setItem('show_popup_reg', '1');
    mockApi();
    renderApp('/');
    expect(await screen.findByRole('dialog', { name: 'Register' })).toBeVisible();
  });

  it('prevent_close=1 makes the popup non-closable', async () => {
    mockApi();
    renderApp('/?show_popup_auth=1&prevent_close=1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: 'Sign in' })).toBeVisible();
  });

  it('#real on a game page opens registration for a guest and returns to the index on close', async () => {
    mockApi();
    const { router } = renderApp('/fr/game/book-of-ra#real');
    const dialog = await screen.findByRole('dialog', { name: 'Inscription' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Fermer' }));
    await waitFor(() => {
      expect(router.state.location.pathname).toBe('/fr');
    });
  });

  it('popup={sysname} opens that dialog, and a new value opens the new one', async () => {
    mockApi();
    const { router } = renderApp('/?popup=registration');
    expect(await screen.findByRole('dialog', { name: 'Register' })).toBeVisible();
    await act(async () => {
      dialogs.closeAll();
      await router.navigate('/?popup=authorization');
    });
    expect(await screen.findByRole('dialog', { name: 'Sign in' })).toBeVisible();
  });

  it('opens nothing for a signed-in player', async () => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    renderApp('/?show_popup_reg=1');
    expect(await screen.findByTestId('header-balance')).toBeVisible();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('logout and restore', () => {
  it('logs out from the header and goes to the index as a guest', async () => {
    const server = session(player());
    const api = mockApi({
      'account.getInfo': server.getInfo,
      'auth.logout': server.signOut,
      'account.getprofileinfo': { contacts: [] },
    });
    const { router } = renderApp('/fr/promotions');
    fireEvent.click(await screen.findByRole('button', { name: 'Menu du compte' }));
    fireEvent.click(screen.getByRole('button', { name: 'Déconnexion' }));

    expect(await screen.findByRole('button', { name: 'Connexion' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/fr');
    expect(api.calls('auth.logout')).toHaveLength(1);
  });

  it('restores a password in two steps and signs in', async () => {
    const server = session();
    const api = mockApi({
      'account.getInfo': server.getInfo,
      'account.getprofileinfo': { contacts: [] },
      'auth.restore': ({ body }: { body: FormData | null }) => {
        if (body?.get('code')) server.signIn(player());
        return 1;
      },
    });
    renderApp('/?show_popup_auth=1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    // The dialog's form is a lazy chunk: it may follow the dialog's frame.
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Forgot your password?' }));
    await type('Email or phone', 'player@example.com', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send the code' }));

    expect(await within(dialog).findByText('If an account uses player@example.com, a code is on its way there.')).toBeVisible();
    await type('Code', '111222', dialog);
    await type('New password', 'newpass1', dialog);
    await type('Repeat the password', 'newpass2', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set the new password' }));
    expect(await within(dialog).findByText('Same as field')).toBeVisible();

    await type('Repeat the password', 'newpass1', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Set the new password' }));
    expect(await screen.findByTestId('header-balance')).toBeVisible();
    expect(Object.fromEntries(api.calls('auth.restore')[1]?.body?.entries() ?? [])).toEqual({
      login: 'player@example.com',
      code: '111222',
      password: 'newpass1',
      password_repeat: 'newpass1',
    });
  });
});

describe('signed-in rules', () => {
  it('closes a signed-in player\'s dialogs when the route name changes, not on the deposit page', async () => {
    mockApi({ 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } });
    const { router } = renderApp('/promotions');
    await screen.findByTestId('header-balance');

    act(() => {
      dialogs.open({ name: 'campaign', label: 'Campaign', render: () => <p>offer</p> });
    });
    await act(async () => {
      await router.navigate('/cashier/deposit');
    });
    expect(screen.getByRole('dialog', { name: 'Campaign' })).toBeVisible();

    await act(async () => {
      await router.navigate('/winners');
    });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  it('opens the non-closable completion when the registration is not completed', async () => {
    const server = session();
    mockApi({
      'account.getInfo': server.getInfo,
      'account.getprofileinfo': { contacts: [] },
      'auth.login': () => server.signIn(player({ is_registration_completed: false, currency: null })),
    });
    renderApp('/?show_popup_auth=1');
    const dialog = await screen.findByRole('dialog', { name: 'Sign in' });
    await type('Email or phone', 'player@example.com', dialog);
    await type('Password', 'secret12', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in' }));

    const completion = await screen.findByRole('dialog', { name: 'Finish your registration' });
    expect(within(completion).queryByRole('button', { name: 'Close' })).toBeNull();
  });

  it('offers to confirm an unconfirmed login contact with the emailed code', async () => {
    const api = mockApi({
      'account.getInfo': player({ reg_time: Math.floor(Date.now() / 1000) - 60 }),
      'account.getprofileinfo': {
        contacts: [{ type: 'email', contact: 'player@example.com', is_confirmed: false, is_subscribed: true, is_login: true }],
      },
      'account.confirmContact': ({ body }: { body: FormData | null }) =>
        body?.get('code') === '123456' ? 1 : apiError('InvalidParameterException', 422, { code: ['CODE_INVALID'] }),
    });
    renderApp('/');
    const hint = await screen.findByTestId('confirm-contact-hint');
    fireEvent.click(within(hint).getByRole('button', { name: 'Confirm' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your email' });

    await type('Code', '000000', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('Wrong SMS code')).toBeVisible();

    api.on('account.getprofileinfo', {
      contacts: [{ type: 'email', contact: 'player@example.com', is_confirmed: true, is_subscribed: true, is_login: true }],
    });
    await type('Code', '123456', dialog);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => {
      expect(screen.queryByTestId('confirm-contact-hint')).toBeNull();
    });
    expect(screen.getByText('Thank you, your contact is confirmed.')).toBeVisible();
  });
});
