// The Loyalty page in the whole console (react-admin, its router, the real providers) over a
// stubbed network answering as loyalty/admin.rs does: the programme's tables, an edit checked
// before sending and the body it puts, the server's field errors, a player's account and a points
// adjustment with its reason; and the page's pure helpers (lib/loyalty.ts).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt, type } from '../lib/test-render';
import { levelsBody, pointsPer100, pointsText, playerId, ratesBody, validateLevels, validateRates } from '../lib/loyalty';
import { errorResponse, jsonResponse } from '../lib/test-fetch';

function operator(permissions: string[]) {
  return {
    id: 3, email: 'marketing@example.com', name: 'Marketing', role: 'marketing', permissions, locale: 'en', disabled: false,
    enrolled: true, created_at: 0, last_sign_in_at: null,
  };
}

/** `GET /admin/loyalty` as `admin_get` writes it. */
const config = {
  settings: { active: true, levels_drop: false },
  rates: [
    { game_type: '*', currency: 'EUR', milli_per_unit: 100 },
    { game_type: 'sport', currency: 'EUR', milli_per_unit: 200 },
  ],
  levels: [
    { level: 1, min_points: 0, title_en: 'Bronze', title_fr: 'Bronze', description_en: 'Welcome', description_fr: 'Bienvenue', image: null, campaign_id: null },
    { level: 2, min_points: 1000, title_en: 'Silver', title_fr: 'Argent', description_en: '', description_fr: '', image: null, campaign_id: 11 },
  ],
  characters: [{ id: 1, sysname: 'rookie', title_en: 'The Rookie', min_level: 1, active: true }],
  products: [
    { id: 1, sysname: 'bonus-5', title_en: '5 bonus', price: 100, kind: 'bonus', campaign_id: 14, boost_bps: null, min_level: 1, stock: null, active: true },
    { id: 2, sysname: 'cashback-boost', title_en: 'Boost', price: 300, kind: 'cashback_boost', campaign_id: null, boost_bps: 500, min_level: 2, stock: 10, active: false },
  ],
  programs: [{ id: 5, sysname: 'first-steps', title_en: 'First steps', active: true }],
  quests: [{ id: 1, program_id: 5, sysname: 'three-deposits', goal: 'deposits', target: 3, game_type: null, reward_points: 100, active: true }],
};

/** `GET /admin/loyalty/accounts/7` as `admin_account` writes it. */
const account = {
  user_id: 7, points: 1234, points_milli: 1_234_500, lifetime_points: 2000, lifetime_milli: 2_000_000, earned_by_bets_milli: 1_500_000,
  level: 2, character_id: 1, active: true,
  entries: [{ key: 'adjust:x', kind: 'adjust', points_milli: 500_000, lifetime_milli: 500_000, reason: 'operator: Goodwill', created_at: 1_700_000_000 }],
};

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** Serves the console; `refuse` answers a `PUT` or `POST` to its path instead of the success. */
function serve(options: { permissions?: string[]; refuse?: Record<string, Response>; accounts?: Record<string, unknown> } = {}) {
  const sent: Sent[] = [];
  const permissions = options.permissions ?? ['players.read', 'campaigns.manage'];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      if (method !== 'GET') sent.push({ method, path: url.pathname, body: JSON.parse((init.body as string | undefined) ?? 'null') });
      if (url.pathname === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator: operator(permissions) }));
      const refusal = method !== 'GET' ? options.refuse?.[url.pathname] : undefined;
      if (refusal) return Promise.resolve(refusal);
      if (url.pathname === '/backoffice/api/admin/loyalty') return Promise.resolve(jsonResponse({ status: 'ok', data: config }));
      const found = /^\/backoffice\/api\/admin\/loyalty\/accounts\/(\d+)$/.exec(url.pathname);
      if (found?.[1]) {
        const answer = (options.accounts ?? { '7': account })[found[1]];
        return Promise.resolve(
          answer
            ? jsonResponse({ status: 'ok', data: answer })
            : errorResponse(400, 'BadRequestException', 'Not found', { user_id: ['NOT_FOUND'] }),
        );
      }
      if (url.pathname === '/backoffice/api/admin/loyalty/points') return Promise.resolve(jsonResponse({ status: 'ok', data: { written: true } }));
      if (url.pathname.startsWith('/backoffice/api/admin/loyalty/')) return Promise.resolve(jsonResponse({ status: 'ok', data: {} }));
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
  return sent;
}



function nth(elements: HTMLElement[], index: number): HTMLElement {
  const element = elements[index];
  if (!element) throw new Error(`no element ${String(index)}`);
  return element;
}

beforeEach(() => {
  localStorage.clear();
});

describe('the loyalty helpers', () => {
  it('shows milli-points as points with their thousandths, in integers', () => {
    expect(pointsText(1_234_500)).toBe('1234.5');
    expect(pointsText(-3000)).toBe('-3');
    expect(pointsText(250)).toBe('0.25');
    expect(pointsText(0)).toBe('0');
    expect(pointsPer100(100)).toBe('10');
    expect(pointsPer100(5)).toBe('0.5');
    expect(playerId(' 42 ')).toBe(42);
    expect(playerId('0')).toBeNull();
    expect(playerId('4.2')).toBeNull();
  });

  it('checks rates as check_rates does and sends exactly their fields', () => {
    expect(validateRates({ items: config.rates })).toEqual({});
    const errors = validateRates({
      items: [
        { game_type: 'Slots!', currency: 'EUR', milli_per_unit: 100 },
        { game_type: 'sport', currency: 'XXX', milli_per_unit: -1 },
        { game_type: 'sport', currency: 'EUR', milli_per_unit: 1_000_001 },
        { game_type: 'sport', currency: 'EUR', milli_per_unit: null },
      ],
    });
    expect(errors.items).toEqual([
      { game_type: 'bo.loyalty.game_type_invalid' },
      { currency: 'bo.codes.UNSUPPORTED', milli_per_unit: { message: 'bo.validation.min_value', args: { min: 0 } } },
      { milli_per_unit: { message: 'bo.validation.max_value', args: { max: 1_000_000 } } },
      { currency: 'bo.codes.DUPLICATE', milli_per_unit: 'bo.codes.REQUIRED' },
    ]);
    expect(ratesBody({ items: [{ game_type: ' slot ', currency: 'EUR', milli_per_unit: 50 }] })).toEqual({
      items: [{ game_type: 'slot', currency: 'EUR', milli_per_unit: 50 }],
    });
  });

  it('checks levels as check_levels does: rising thresholds, titles, image, campaign', () => {
    expect(validateLevels({ items: config.levels })).toEqual({});
    const errors = validateLevels({
      items: [
        { level: 2, min_points: 100, title_en: 'Silver', title_fr: 'Argent', image: 'http://x/y.png' },
        { level: 1, min_points: 500, title_en: 'Bronze', title_fr: '' },
        { level: 3, min_points: 100, title_en: 'Gold', title_fr: 'Or', campaign_id: 0 },
        { level: 101, min_points: -1, title_en: 'x'.repeat(101), title_fr: 'y' },
      ],
    });
    expect(errors.items).toEqual([
      { image: 'bo.loyalty.image_invalid', min_points: 'bo.loyalty.threshold_not_rising' },
      { title_fr: 'bo.codes.REQUIRED' },
      { campaign_id: 'bo.codes.INVALID', min_points: 'bo.loyalty.threshold_not_rising' },
      {
        level: { message: 'bo.validation.max_value', args: { max: 100 } },
        min_points: { message: 'bo.validation.min_value', args: { min: 0 } },
        title_en: { message: 'bo.validation.max_length', args: { max: 100 } },
      },
    ]);
    expect(levelsBody({ items: [{ level: 1, min_points: 0, title_en: ' Bronze ', title_fr: 'Bronze', image: '', campaign_id: null }] })).toEqual({
      items: [{ level: 1, min_points: 0, title_en: 'Bronze', title_fr: 'Bronze', description_en: '', description_fr: '', image: null, campaign_id: null }],
    });
  });
});

describe('the Loyalty page', () => {
  it('is in the menu of an operator with campaigns.manage and shows the programme', async () => {
    serve();
    renderAt('/backoffice/loyalty');
    expect(await screen.findByTestId('loyalty-active')).toHaveTextContent('The programme is on');
    expect(screen.getByRole('menuitem', { name: /Loyalty/ })).toBeInTheDocument();
    const rates = screen.getByTestId('loyalty-rates');
    expect(within(rates).getByText('* (any other game)')).toBeInTheDocument();
    // 200 milli-points per unit: 20 points per 100 staked.
    expect(within(rates).getByText('20')).toBeInTheDocument();
    const levels = screen.getByTestId('loyalty-levels');
    expect(within(levels).getByText('Argent')).toBeInTheDocument();
    expect(within(levels).getByText('1000')).toBeInTheDocument();
    const products = screen.getByTestId('loyalty-products');
    expect(within(products).getByText('Cashback +5%')).toBeInTheDocument();
    expect(within(products).getByText('Campaign #14')).toBeInTheDocument();
    expect(within(screen.getByTestId('loyalty-quests')).getByText('first-steps')).toBeInTheDocument();
    expect(within(screen.getByTestId('loyalty-characters')).getByText('rookie')).toBeInTheDocument();
  });

  it('is not in the menu without campaigns.manage', async () => {
    serve({ permissions: ['players.read'] });
    renderAt('/backoffice/players');
    expect(await screen.findByRole('menuitem', { name: /Players/ })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: /Loyalty/ })).not.toBeInTheDocument();
  });

  it('edits the rates: refuses a bad row before sending, then puts the whole list', async () => {
    const sent = serve();
    renderAt('/backoffice/loyalty');
    fireEvent.click(await screen.findByTestId('loyalty-rates-edit'));
    const form = await screen.findByTestId('loyalty-rates-form-save');
    const gameTypes = screen.getAllByLabelText(/Game type/);
    const milli = screen.getAllByLabelText(/Milli-points per unit/);
    expect(gameTypes).toHaveLength(2);
    fireEvent.change(nth(gameTypes, 1), { target: { value: 'Sport Bets' } });
    fireEvent.click(form);
    expect(await screen.findByText(/A game type \(lower-case letters/)).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    fireEvent.change(nth(gameTypes, 1), { target: { value: 'sport' } });
    fireEvent.change(nth(milli, 1), { target: { value: '250' } });
    fireEvent.click(form);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]).toEqual({
      method: 'PUT',
      path: '/backoffice/api/admin/loyalty/rates',
      body: {
        items: [
          { game_type: '*', currency: 'EUR', milli_per_unit: 100 },
          { game_type: 'sport', currency: 'EUR', milli_per_unit: 250 },
        ],
      },
    });
    // Saved: the tables are back.
    expect(await screen.findByTestId('loyalty-rates')).toBeInTheDocument();
  }, 60_000);

  it('switches the programme off with the settings body', async () => {
    const sent = serve();
    renderAt('/backoffice/loyalty');
    fireEvent.click(await screen.findByTestId('loyalty-settings-edit'));
    fireEvent.click(await screen.findByLabelText(/Programme on/));
    fireEvent.click(screen.getByTestId('loyalty-settings-form-save'));
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]).toEqual({ method: 'PUT', path: '/backoffice/api/admin/loyalty/settings', body: { active: false, levels_drop: false } });
  }, 60_000);

  it('is keyboard friendly: an edit takes the focus, Escape cancels it and gives the focus back', async () => {
    const sent = serve();
    renderAt('/backoffice/loyalty');
    fireEvent.click(await screen.findByTestId('loyalty-rates-edit'));
    await screen.findByTestId('loyalty-rates-form-save');
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByRole('group', { name: 'Earning rates' }));
    });
    // Tab goes on to the first row's inputs; Escape from one of them cancels.
    fireEvent.keyDown(nth(screen.getAllByLabelText(/Game type/), 0), { key: 'Escape' });
    await waitFor(() => {
      expect(document.activeElement).toBe(screen.getByTestId('loyalty-rates-edit'));
    });
    expect(screen.getByTestId('loyalty-rates')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
  }, 60_000);

  it('shows the server’s field errors when it refuses the levels, and keeps the form', async () => {
    const sent = serve({
      refuse: {
        '/backoffice/api/admin/loyalty/levels': errorResponse(400, 'BadRequestException', 'Some fields are invalid', {
          campaign_id: ['NOT_FOUND'],
        }),
      },
    });
    renderAt('/backoffice/loyalty');
    fireEvent.click(await screen.findByTestId('loyalty-levels-edit'));
    const save = await screen.findByTestId('loyalty-levels-form-save');
    const campaigns = screen.getAllByLabelText(/Campaign id/);
    fireEvent.change(nth(campaigns, 1), { target: { value: '99' } });
    fireEvent.click(save);
    const errors = await screen.findByTestId('loyalty-server-errors');
    expect(errors).toHaveTextContent('Campaign id: Not found');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.path).toBe('/backoffice/api/admin/loyalty/levels');
    expect((sent[0]?.body as { items: { campaign_id: number | null }[] }).items.map((l) => l.campaign_id)).toEqual([null, 99]);
    expect(await screen.findByText('Some fields are invalid')).toBeInTheDocument();
    // Still editing: the operator corrects and saves again.
    expect(screen.getByTestId('loyalty-levels-form-save')).toBeInTheDocument();
  }, 60_000);

  it('shows a player’s account and adjusts their points with a reason', async () => {
    const sent = serve();
    renderAt('/backoffice/loyalty');
    await screen.findByTestId('loyalty-active');
    fireEvent.change(screen.getByTestId('loyalty-player-id'), { target: { value: '7' } });
    fireEvent.click(screen.getByTestId('loyalty-player-show'));
    const summary = await screen.findByTestId('loyalty-account-summary');
    expect(summary).toHaveTextContent('1234.5');
    expect(summary).toHaveTextContent('2 · Silver');
    expect(summary).toHaveTextContent('rookie');
    const entries = screen.getByTestId('loyalty-entries');
    expect(within(entries).getByText('Operator adjustment')).toBeInTheDocument();
    expect(within(entries).getByText('operator: Goodwill')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('player-grant-points'));
    const dialog = await screen.findByRole('dialog');
    type(/Points/, '-40', dialog);
    expect(await within(dialog).findByTestId('points-summary')).toHaveTextContent('Takes 40 points from player #7.');
    const confirm = () => {
      const button = within(dialog).getAllByRole('button', { name: 'Loyalty points' }).at(-1);
      if (button) fireEvent.click(button);
    };
    confirm();
    // The reason is required.
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    type(/Reason/, 'Duplicate quest reward', dialog);
    confirm();
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.path).toBe('/backoffice/api/admin/loyalty/points');
    expect(sent[0]?.body).toMatchObject({ user_id: 7, points: -40, reason: 'Duplicate quest reward' });
    expect(typeof (sent[0]?.body as { key?: unknown }).key).toBe('string');
  }, 60_000);

  it('opens on the player the player’s page links to, and says when they have no account yet', async () => {
    serve({ accounts: {} });
    renderAt('/backoffice/loyalty?player=8');
    expect(await screen.findByText(/Player #8 has no loyalty account yet/)).toBeInTheDocument();
    expect(screen.getByTestId('player-grant-points')).toBeInTheDocument();
    // Opened on a player, the account comes before the programme.
    await screen.findByTestId('loyalty-active');
    const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent);
    expect(headings.indexOf('A player’s loyalty account')).toBeLessThan(headings.indexOf('Programme'));
  });
});
