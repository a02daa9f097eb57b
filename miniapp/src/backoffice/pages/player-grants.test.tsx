// The player page's grants and verification review: each dialog's validation, and the request the
// data provider sends (the real provider over a stubbed network).
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { AdminContext, RecordContextProvider } from 'react-admin';
import { describe, expect, it } from 'vitest';
import { createI18nProvider } from '../i18n/provider';
import { createDataProvider } from '../lib/data-provider';
import { jsonResponse, stubFetch } from '../lib/test-fetch';
import {
  GrantBonusButton,
  GrantCashbackButton,
  GrantPointsButton,
  VerificationButton,
  cashbackAmountError,
  descriptionError,
  endDateValidator,
  pointsError,
  verificationBody,
} from './player-grants';

const player = { id: 7, login: 'ann', currency: 'EUR' };

function renderWith(children: ReactNode) {
  return render(
    <AdminContext dataProvider={createDataProvider()} i18nProvider={createI18nProvider('en')}>
      <RecordContextProvider value={player}>{children}</RecordContextProvider>
    </AdminContext>,
  );
}

/** Opens the dialog of `testId`; answers it. */
async function open(testId: string): Promise<HTMLElement> {
  fireEvent.click(screen.getByTestId(testId));
  return screen.findByRole('dialog');
}

/** The dialog's confirm button (the last button named like the one that opened it). */
function confirm(dialog: HTMLElement, name: string) {
  const button = within(dialog).getAllByRole('button', { name }).at(-1);
  if (!button) throw new Error(`no ${name} button`);
  fireEvent.click(button);
}

function type(dialog: HTMLElement, label: RegExp, value: string) {
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });
}

describe('grant validators', () => {
  it('takes whole, signed, non-zero points up to 100,000,000', () => {
    expect(pointsError(50)).toBeUndefined();
    expect(pointsError(-100_000_000)).toBeUndefined();
    expect(pointsError(null)).toBe('bo.codes.REQUIRED');
    expect(pointsError(0)).toBe('bo.grants.points_invalid');
    expect(pointsError(1.5)).toBe('bo.grants.points_invalid');
    expect(pointsError(100_000_001)).toBe('bo.grants.points_invalid');
  });

  it('takes a cashback of more than 0 with the currency’s decimals, two descriptions and a future end', () => {
    expect(cashbackAmountError('12.50', { currency: 'EUR' })).toBeUndefined();
    expect(cashbackAmountError('12.5', { currency: 'JPY' })).toBe('bo.codes.INVALID');
    expect(cashbackAmountError('0', { currency: 'EUR' })).toBe('bo.codes.INVALID');
    expect(cashbackAmountError('', { currency: 'EUR' })).toBe('bo.codes.REQUIRED');
    expect(descriptionError('  ')).toBe('bo.codes.REQUIRED');
    expect(descriptionError('x'.repeat(1001))).toBe('bo.codes.MAX_LENGTH');
    const endDateError = endDateValidator(() => Date.parse('2026-11-26T12:00:00Z'));
    expect(endDateError('2026-11-27T12:00:00Z')).toBeUndefined();
    expect(endDateError('2026-11-25T12:00:00Z')).toBe('bo.grants.end_in_past');
    expect(endDateError(null)).toBe('bo.codes.REQUIRED');
  });

  it('sends the KYC block only when the operator changes it', () => {
    expect(verificationBody({ status: 'verified', reason: 'Documents checked', kyc_block: 'keep' })).toEqual({
      status: 'verified',
      reason: 'Documents checked',
    });
    expect(verificationBody({ status: 'retry', reason: 'Blurry', kyc_block: 'on' })).toEqual({ status: 'retry', reason: 'Blurry', kyc_block: true });
    expect(verificationBody({ status: 'none', reason: 'Reset', kyc_block: 'off' })).toMatchObject({ kyc_block: false });
  });
});

describe('the grant dialogs', () => {
  it('grants loyalty points with a reason and an idempotency key', async () => {
    const calls = stubFetch(jsonResponse({ status: 'ok', data: { written: true } }));
    renderWith(<GrantPointsButton />);
    const dialog = await open('player-grant-points');
    confirm(dialog, 'Loyalty points');
    expect((await within(dialog).findAllByText('Required')).length).toBeGreaterThan(0);
    expect(calls).toHaveLength(0);
    type(dialog, /Points/, '0');
    type(dialog, /Reason/, 'Sorry for the outage');
    confirm(dialog, 'Loyalty points');
    expect(await within(dialog).findByText(/A whole number other than 0/)).toBeInTheDocument();
    type(dialog, /Points/, '-250');
    confirm(dialog, 'Loyalty points');
    await waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/loyalty/points');
    expect(calls[0]?.body).toMatchObject({ user_id: 7, points: -250, reason: 'Sorry for the outage' });
    expect(typeof (calls[0]?.body as { key?: unknown }).key).toBe('string');
  });

  it('grants a manual campaign’s bonus, choosing among the manual campaigns not ended', async () => {
    const calls = stubFetch(
      jsonResponse({
        status: 'ok',
        data: {
          items: [
            { id: 1, sysname: 'welcome', title_en: 'Welcome', trigger: 'registration', status: 'active' },
            { id: 2, sysname: 'sorry', title_en: 'Apology', trigger: 'manual', status: 'active' },
            { id: 3, sysname: 'old', title_en: 'Old', trigger: 'manual', status: 'ended' },
          ],
        },
      }),
      jsonResponse({ status: 'ok', data: { id: 99 } }),
      // The page refreshes after the grant.
      jsonResponse({ status: 'ok', data: { items: [] } }),
    );
    renderWith(<GrantBonusButton />);
    const dialog = await open('player-grant-bonus');
    await waitFor(() => {
      expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/campaigns');
    });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    const listbox = await screen.findByRole('listbox');
    expect(within(listbox).queryByText('Welcome (welcome)')).not.toBeInTheDocument();
    expect(within(listbox).queryByText('Old (old)')).not.toBeInTheDocument();
    fireEvent.click(within(listbox).getByText('Apology (sorry)'));
    type(dialog, /Reason/, 'Goodwill after a complaint');
    confirm(dialog, 'Grant a bonus');
    await waitFor(() => {
      expect(calls).toHaveLength(2);
    });
    expect(calls[1]?.url.pathname).toBe('/backoffice/api/admin/bonuses');
    expect(calls[1]?.body).toEqual({ user_id: 7, campaign_id: 2, reason: 'Goodwill after a complaint' });
  });

  it('grants a cashback in minor units with both descriptions, its end in seconds, a reason and a request id', async () => {
    const calls = stubFetch(jsonResponse({ status: 'ok', data: { id: 5 } }));
    renderWith(<GrantCashbackButton />);
    const dialog = await open('player-grant-cashback');
    type(dialog, /Amount/, '12.345');
    confirm(dialog, 'Grant a cashback');
    expect(await within(dialog).findByText('Invalid value')).toBeInTheDocument();
    type(dialog, /Amount/, '12.34');
    type(dialog, /English/, 'Weekend cashback');
    type(dialog, /French/, 'Cashback du week-end');
    type(dialog, /Can be claimed until/, '2099-01-01T10:00');
    type(dialog, /Reason/, 'Goodwill after a complaint');
    confirm(dialog, 'Grant a cashback');
    await waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/cashbacks');
    const { request_id: requestId, ...body } = (calls[0]?.body ?? {}) as Record<string, unknown>;
    expect(body).toEqual({
      user_id: 7,
      amount: 1234,
      currency: 'EUR',
      description_en: 'Weekend cashback',
      description_fr: 'Cashback du week-end',
      end_date: Math.floor(new Date('2099-01-01T10:00').getTime() / 1000),
      reason: 'Goodwill after a complaint',
    });
    expect(requestId).toMatch(/^[A-Za-z0-9_:-]{1,64}$/);
  });

  it('sets the verification status with a reason', async () => {
    const calls = stubFetch(jsonResponse({ status: 'ok', data: { user_id: 7, status: 'verified' } }));
    renderWith(<VerificationButton />);
    const dialog = await open('player-verification');
    const [statusSelect] = within(dialog).getAllByRole('combobox');
    if (!statusSelect) throw new Error('no status select');
    fireEvent.mouseDown(statusSelect);
    fireEvent.click(within(await screen.findByRole('listbox')).getByText('Verified'));
    type(dialog, /Reason/, 'Passport checked');
    confirm(dialog, 'Verification');
    await waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    expect(calls[0]?.url.pathname).toBe('/backoffice/api/admin/players/7/verification');
    expect(calls[0]?.body).toEqual({ status: 'verified', reason: 'Passport checked' });
  });
});
