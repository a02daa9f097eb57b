// The campaign pages in the whole console (react-admin, its router, the real providers) over a
// stubbed network: the create form's validation and the body it posts, the edit page over the
// server's campaign answer, and the promo codes' requests.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt, type } from '../lib/test-render';
import { jsonResponse } from '../lib/test-fetch';
import { maxUsesError, promoCodeError } from './campaigns';

const marketing = {
  id: 3,
  email: 'marketing@example.com',
  name: 'Marketing',
  role: 'marketing',
  permissions: ['players.read', 'campaigns.manage', 'reports.read'],
  locale: 'en',
  disabled: false,
  enrolled: true,
  created_at: 0,
  last_sign_in_at: null,
};

/** The campaign answer of `GET /admin/campaigns/{id}` as bonuses/admin.rs `campaign_json` writes it. */
const spring = {
  id: 4,
  sysname: 'spring',
  status: 'active',
  trigger: 'promo_code',
  reward: 'fixed',
  title_en: 'Spring',
  takers: 3,
  max_takers: null,
  starts_at: null,
  ends_at: null,
  amounts: [{ currency: 'EUR', min_deposit: 0, max_bonus: 1250, max_bet: 500, max_conversion: null, freespin_bet: 0 }],
  promo_codes: [{ code: 'SPRING', status: 'active', max_uses: 100, uses: 3 }],
  report: { takers: 3, by_status: {}, granted: {}, converted: {}, forfeited: {}, cost: {} },
};

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

function serve(): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://localhost');
      const method = init.method ?? 'GET';
      if (method !== 'GET') sent.push({ method, path: url.pathname, body: JSON.parse((init.body as string | undefined) ?? 'null') });
      if (url.pathname === '/backoffice/api/session') return Promise.resolve(jsonResponse({ operator: marketing }));
      if (url.pathname === '/backoffice/api/admin/campaigns' && method === 'POST') {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { id: 9 } }));
      }
      if (url.pathname === '/backoffice/api/admin/campaigns/4' || url.pathname === '/backoffice/api/admin/campaigns/9') {
        return Promise.resolve(jsonResponse({ status: 'ok', data: spring }));
      }
      if (url.pathname === '/backoffice/api/admin/campaigns') return Promise.resolve(jsonResponse({ status: 'ok', data: { items: [spring] } }));
      if (url.pathname.startsWith('/backoffice/api/admin/promo-codes')) {
        return Promise.resolve(jsonResponse({ status: 'ok', data: { code: 'SPRING', status: 'paused' } }));
      }
      return Promise.resolve(jsonResponse([], 200, { 'Content-Range': 'x */0' }));
    }),
  );
  return sent;
}



beforeEach(() => {
  localStorage.clear();
});

describe('promo code validators', () => {
  it('take the codes and limits the server takes', () => {
    expect(promoCodeError('SPRING-25')).toBeUndefined();
    expect(promoCodeError('')).toBe('bo.codes.REQUIRED');
    expect(promoCodeError('spring 25')).toBe('bo.campaigns.code_invalid');
    expect(maxUsesError(null)).toBeUndefined();
    expect(maxUsesError(5)).toBeUndefined();
    expect(maxUsesError(0)).toBe('bo.codes.MIN_VALUE');
  });
});

// The campaign form is large: typing into it re-validates the whole form, slow on a loaded machine.
describe('the campaign pages', () => {
  it('create: shows the server’s rules before sending, then posts the body in minor units', async () => {
    const sent = serve();
    renderAt('/backoffice/campaigns/create');
    const save = await screen.findByRole('button', { name: 'Save' });
    type(/System name/, 'Spring 2026');
    type(/Maximum bonus/, '12.505');
    fireEvent.click(save);
    expect((await screen.findAllByText('Required')).length).toBeGreaterThan(0);
    // The sysname and the maximum bonus.
    expect(await screen.findAllByText('Invalid value')).toHaveLength(2);
    expect(sent).toHaveLength(0);

    type(/System name/, 'spring-2026');
    type(/Maximum bonus/, '12.50');
    type(/Maximum bet/, '5');
    type(/Title \(English\)/, 'Spring');
    type(/Title \(French\)/, 'Printemps');
    type(/Text \(English\)/, 'A spring bonus');
    type(/Text \(French\)/, 'Un bonus de printemps');
    type(/Countries/, 'fr, be');
    fireEvent.click(save);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]?.path).toBe('/backoffice/api/admin/campaigns');
    expect(sent[0]?.body).toMatchObject({
      sysname: 'spring-2026',
      status: 'draft',
      trigger: 'manual',
      reward: 'fixed',
      countries: ['FR', 'BE'],
      title_fr: 'Printemps',
      text_en: 'A spring bonus',
      claim_days: 7,
      wager_days: 30,
      amounts: [{ currency: 'EUR', min_deposit: 0, max_bonus: 1250, max_bet: 500, max_conversion: null, freespin_bet: 0 }],
    });
  }, 60_000);

  it('edit: reads the campaign answer, names the fields it lacks, and puts the whole campaign', async () => {
    const sent = serve();
    renderAt('/backoffice/campaigns/4');
    // The form mounts after the record's request: on a loaded machine that takes more than the
    // default second.
    const warning = await screen.findByTestId('campaign-missing', {}, { timeout: 10_000 });
    expect(warning).toHaveTextContent('title_fr');
    expect(warning).not.toHaveTextContent('amounts');
    // The form may mount twice (once per answer of the record): look for the input each time.
    await waitFor(() => expect(screen.getByDisplayValue('12.50')).toBeInTheDocument(), { timeout: 10_000 });
    expect(screen.getByDisplayValue('spring')).toBeInTheDocument();
    type(/Title \(French\)/, 'Printemps');
    type(/Text \(English\)/, 'A spring bonus');
    type(/Text \(French\)/, 'Un bonus de printemps');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(sent.some((call) => call.method === 'PUT')).toBe(true);
    });
    const put = sent.find((call) => call.method === 'PUT');
    expect(put?.path).toBe('/backoffice/api/admin/campaigns/4');
    expect(put?.body).toMatchObject({
      sysname: 'spring',
      status: 'active',
      trigger: 'promo_code',
      title_en: 'Spring',
      title_fr: 'Printemps',
      amounts: [{ currency: 'EUR', min_deposit: 0, max_bonus: 1250, max_bet: 500, max_conversion: null, freespin_bet: 0 }],
    });
    expect(Object.keys(put?.body as object)).not.toContain('id');
    expect(Object.keys(put?.body as object)).not.toContain('promo_codes');
  }, 60_000);

  it('edit: deactivates a promo code and creates one for the campaign', async () => {
    const sent = serve();
    renderAt('/backoffice/campaigns/4');
    const codes = await screen.findByTestId('promo-codes');
    expect(within(codes).getByText('SPRING')).toBeInTheDocument();
    expect(within(codes).getByText('Used 3 of 100')).toBeInTheDocument();
    fireEvent.click(within(codes).getByTestId('promo-code-pause-SPRING'));
    let dialog = await screen.findByRole('dialog');
    type(/Reason/, 'Leaked on a forum', dialog);
    const pause = within(dialog).getAllByRole('button', { name: 'Deactivate' }).at(-1);
    if (pause) fireEvent.click(pause);
    await waitFor(() => {
      expect(sent).toHaveLength(1);
    });
    expect(sent[0]).toEqual({ method: 'POST', path: '/backoffice/api/admin/promo-codes/SPRING/pause', body: { reason: 'Leaked on a forum' } });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });

    fireEvent.click(within(codes).getByTestId('promo-code-create'));
    dialog = await screen.findByRole('dialog');
    type(/^Code/, 'spring two', dialog);
    const create = () => {
      const button = within(dialog).getAllByRole('button', { name: 'New promo code' }).at(-1);
      if (button) fireEvent.click(button);
    };
    create();
    expect(await within(dialog).findByText(/Letters, digits/)).toBeInTheDocument();
    type(/^Code/, 'SPRING-2', dialog);
    type(/Maximum uses/, '50', dialog);
    create();
    await waitFor(() => {
      expect(sent).toHaveLength(2);
    });
    expect(sent[1]).toEqual({
      method: 'POST',
      path: '/backoffice/api/admin/promo-codes',
      body: { code: 'SPRING-2', campaign_id: 4, max_uses: 50 },
    });
  }, 60_000);
});
