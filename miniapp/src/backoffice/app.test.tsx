// The console rendered whole (react-admin, its router at /backoffice, the real providers) over a
// stubbed network: what an operator sees follows their permissions.
import { fireEvent, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from './lib/test-render';
import { errorResponse, jsonResponse } from './lib/test-fetch';

const player = {
  id: 7,
  login: 'ann',
  email: 'ann@example.com',
  phone: null,
  telegram_id: null,
  fakename: 'Ann',
  country_code: 'GB',
  currency: 'EUR',
  created_at: 1_700_000_000,
  banned: false,
  ban_reason: null,
  verification: 'verified',
  balances: {
    main: { amount: 1050, currency: 'EUR' },
    bonus: { amount: 0, currency: 'EUR' },
    betting_bonus: { amount: 0, currency: 'EUR' },
  },
  contacts: [{ kind: 'email', value: 'ann@example.com', confirmed: true }],
  limits: [],
  exclusions: [],
  two_factor: false,
};

function operator(role: string, permissions: string[]) {
  return { id: 1, email: `${role}@example.com`, name: role, role, permissions, locale: 'en', disabled: false, enrolled: true, created_at: 0, last_sign_in_at: null };
}

function serve(permissions: string[], role: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator: operator(role, permissions) }));
      if (url.pathname === '/backoffice/api/players/7') return Promise.resolve(jsonResponse(player));
      if (url.pathname === '/backoffice/api/players') {
        return Promise.resolve(jsonResponse([player], 200, { 'Content-Range': 'players 0-0/1' }));
      }
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
}


beforeEach(() => {
  localStorage.clear();
});

describe('the console', () => {
  it('shows support the player actions of support and no balance correction', async () => {
    serve(['players.read', 'players.ban', 'players.notes', 'players.sessions', 'withdrawals.read', 'deposits.read', 'rounds.read'], 'support');
    renderAt('/backoffice/players/7/show');
    expect(await screen.findByText('€10.50')).toBeInTheDocument();
    expect(screen.getByTestId('player-ban')).toBeInTheDocument();
    expect(screen.getByTestId('player-end-sessions')).toBeInTheDocument();
    expect(screen.queryByTestId('player-correct')).not.toBeInTheDocument();
    expect(screen.getByTestId('player-verification')).toBeInTheDocument();
    expect(screen.queryByTestId('player-grant-bonus')).not.toBeInTheDocument();
    expect(screen.queryByTestId('player-loyalty-account')).not.toBeInTheDocument();
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Players')).toBeInTheDocument();
    expect(within(menu).getByText('Support messages')).toBeInTheDocument();
    expect(within(menu).queryByText('Operators')).not.toBeInTheDocument();
    expect(within(menu).queryByText('Audit trail')).not.toBeInTheDocument();
    expect(within(menu).queryByText('Reports')).not.toBeInTheDocument();
    expect(within(menu).queryByText('Loyalty')).not.toBeInTheDocument();
  });

  it('shows finance the balance correction and no ban', async () => {
    serve(['players.read', 'balance.correct', 'balance.approve', 'withdrawals.read', 'withdrawals.decide', 'deposits.read', 'rounds.read', 'reports.read', 'audit.read'], 'finance');
    renderAt('/backoffice/players/7/show');
    expect(await screen.findByTestId('player-correct')).toBeInTheDocument();
    expect(screen.queryByTestId('player-ban')).not.toBeInTheDocument();
    expect(screen.queryByTestId('player-end-sessions')).not.toBeInTheDocument();
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Audit trail')).toBeInTheDocument();
    expect(within(menu).getByText('Reports')).toBeInTheDocument();
    expect(within(menu).queryByText('System')).not.toBeInTheDocument();
    expect(within(menu).queryByText('Operators')).not.toBeInTheDocument();
  });

  it('shows marketing the grants and no ban, correction or verification', async () => {
    serve(['players.read', 'campaigns.manage', 'reports.read'], 'marketing');
    renderAt('/backoffice/players/7/show');
    expect(await screen.findByTestId('player-grant-bonus')).toBeInTheDocument();
    expect(screen.getByTestId('player-grant-points')).toBeInTheDocument();
    expect(screen.getByTestId('player-grant-cashback')).toBeInTheDocument();
    expect(screen.getByTestId('player-loyalty-account')).toHaveAttribute('href', '/backoffice/loyalty?player=7');
    expect(screen.queryByTestId('player-ban')).not.toBeInTheDocument();
    expect(screen.queryByTestId('player-correct')).not.toBeInTheDocument();
    expect(screen.queryByTestId('player-verification')).not.toBeInTheDocument();
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('Campaigns')).toBeInTheDocument();
    expect(within(menu).getByText('Loyalty')).toBeInTheDocument();
  });

  it('enrols an operator without TOTP: QR code and secret, then the first code signs in', async () => {
    const posted: { path: string; body: unknown }[] = [];
    let signedIn = false;
    const admin = operator('admin', ['players.read']);
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init: RequestInit = {}) => {
        const url = new URL(input, 'http://localhost');
        if (init.method === 'POST') posted.push({ path: url.pathname, body: JSON.parse(init.body as string) });
        if (url.pathname === '/backoffice/api/session' && init.method === 'POST') {
          return Promise.resolve(
            jsonResponse({
              enrolment: { token: 'tok', secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_svg: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
            }),
          );
        }
        if (url.pathname === '/backoffice/api/session/enrol') {
          signedIn = true;
          return Promise.resolve(jsonResponse({ operator: admin }));
        }
        if (url.pathname === '/backoffice/api/session') {
          return Promise.resolve(signedIn ? jsonResponse({ operator: admin }) : errorResponse(401, 'AuthorizationException', 'Sign in'));
        }
        return Promise.resolve(jsonResponse([player], 200, { 'Content-Range': 'players 0-0/1' }));
      }),
    );
    renderAt('/backoffice/login');
    fireEvent.change(await screen.findByLabelText(/E-mail/), { target: { value: 'first@example.com' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'a long enough password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByTestId('enrol-qr')).toHaveAttribute('src', expect.stringMatching(/^data:image\/svg\+xml/) as string);
    expect(screen.getByTestId('enrol-secret')).toHaveValue('JBSWY3DPEHPK3PXP');
    expect(posted[0]).toEqual({ path: '/backoffice/api/session', body: { email: 'first@example.com', password: 'a long enough password' } });
    fireEvent.change(screen.getByLabelText(/Authenticator code/), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enable and sign in' }));
    expect(await screen.findByText('ann@example.com')).toBeInTheDocument();
    expect(posted[1]).toEqual({ path: '/backoffice/api/session/enrol', body: { token: 'tok', totp: '123456' } });
  });
});
