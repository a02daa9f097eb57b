import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, GUEST, mockApi, player } from '@/test/api-mock';
import { dialogNames, renderDialogs } from '@/test/dialogs';
import type { Cashback } from '@/features/cashbacks';
import { queueUnseenCashback } from './unseen-cashback';

function cashback(id: number, overrides: Partial<Cashback> = {}): Cashback {
  return {
    id,
    status: 'active',
    pays: 'real',
    description: '10% of your losses back',
    amount: { amount: '12.50', currency: 'USD' },
    receiving_expired_at: null,
    paid_out_at: null,
    end_date: 1_900_000_000,
    created_at: 1_800_000_000,
    ...overrides,
  };
}

/** The server's answers: the newest active cashback (if any) and the stored seen id. */
function server(newest: Cashback | null, seen: string | null) {
  return mockApi({
    'cashbacks.get': { total: newest ? 1 : 0, items: newest ? [newest] : [] },
    'storage.get': seen,
    'storage.set': 1,
  });
}

const names = dialogNames;

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  act(() => {
    dialogs.closeAll({ immediate: true });
  });
  for (const waiting of dialogs.store.get().queued) dialogs.close(waiting.id);
  vi.restoreAllMocks();
  await activateLocale('en');
});

describe('unseen cashback popup after login', () => {
  it('asks for the newest active cashback and the seen id, and shows a cashback not seen yet', async () => {
    const api = server(cashback(12), '11');
    renderDialogs();

    const id = await act(() => queueUnseenCashback(player()));

    expect(id).not.toBeNull();
    const query = api.calls('cashbacks.get')[0]?.url.searchParams;
    expect([query?.get('statuses'), query?.get('count'), query?.get('sort'), query?.get('order')]).toEqual([
      'active',
      '1',
      'created_at',
      'desc',
    ]);
    expect(api.calls('storage.get')[0]?.url.searchParams.get('key')).toBe('already_seen_cashback_id');
    const dialog = await screen.findByRole('dialog', { name: 'Cashback for you: $12.50' });
    expect(within(dialog).getByText('10% of your losses back')).toBeVisible();
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('waits behind a dialog already open instead of opening on top', async () => {
    server(cashback(3), null);
    dialogs.open({ name: 'socialRegistration', label: 'Finish registration', preventClose: true, render: () => <p>form</p> });

    await queueUnseenCashback(player());

    expect(names()).toEqual({ open: ['socialRegistration'], queued: ['popup:unseenCashback'] });
    const open = dialogs.store.get().open[0];
    if (open) dialogs.close(open.id, { immediate: true });
    expect(names()).toEqual({ open: ['popup:unseenCashback'], queued: [] });
  });

  it('remembers the cashback on the server once the popup is closed', async () => {
    const api = server(cashback(12), null);
    renderDialogs();
    await act(() => queueUnseenCashback(player()));

    const dialog = await screen.findByRole('dialog', { name: 'Cashback for you: $12.50' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Great' }));

    await waitFor(() => {
      expect(api.calls('storage.set')).toHaveLength(1);
    });
    const body = api.calls('storage.set')[0]?.body;
    expect([body?.get('key'), body?.get('value')]).toEqual(['already_seen_cashback_id', '12']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows nothing when the newest active cashback was already seen', async () => {
    const api = server(cashback(12), '12');

    expect(await queueUnseenCashback(player())).toBeNull();

    expect(names()).toEqual({ open: [], queued: [] });
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('shows nothing without an active cashback', async () => {
    server(null, null);

    expect(await queueUnseenCashback(player())).toBeNull();
    expect(names()).toEqual({ open: [], queued: [] });
  });

  it('asks nothing for a guest', async () => {
    const api = server(cashback(12), null);

    expect(await queueUnseenCashback(GUEST)).toBeNull();

    expect(api.fetch).not.toHaveBeenCalled();
    expect(names()).toEqual({ open: [], queued: [] });
  });

  it('skips the popup when the cashbacks cannot be read', async () => {
    const api = server(cashback(12), null);
    api.on('cashbacks.get', apiError('InternalServerErrorException', 500));

    expect(await queueUnseenCashback(player())).toBeNull();
    expect(names()).toEqual({ open: [], queued: [] });
  });

  it('speaks French with a French player', async () => {
    await activateLocale('fr');
    server(cashback(5, { description: '10 % de vos pertes remboursés' }), null);
    renderDialogs();

    await act(() => queueUnseenCashback(player({ locale: 'fr' })));

    const dialog = await screen.findByRole('dialog', { name: 'Un cashback pour vous : 12,50\u00a0$' });
    expect(within(dialog).getByText('10 % de vos pertes remboursés')).toBeVisible();
    expect(within(dialog).getByRole('button', { name: 'Super' })).toBeVisible();
  });
});
