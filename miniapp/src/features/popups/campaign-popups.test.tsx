import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toContentPopup } from '@/features/content';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { apiError, GUEST, mockApi, player } from '@/test/api-mock';
import { dialogNames, renderDialogs } from '@/test/dialogs';
import { parseSeenCampaignPopups, queueCampaignPopups } from './campaign-popups';

/** A Strapi-style answer of the content service. */
function strapi(data: unknown, status = 200): Response {
  return new Response(JSON.stringify({ data, meta: {} }), { status, headers: { 'Content-Type': 'application/json' } });
}

const entry = (id: number, attributes: Record<string, unknown>) => ({ id, attributes });

/** The content's popups: two after-login campaigns, one for guests only, one shown by link only. */
const POPUPS = [
  entry(3, { sysname: 'weekend-reload', title: 'Weekend reload', text: '50% on Saturdays', kind: 'curtain', size: 'full', audience: 'player', showAfterLogin: true }),
  entry(4, { sysname: 'vip-night', title: 'VIP night', kind: 'popup', audience: 'all', showAfterLogin: true }),
  entry(1, { sysname: 'welcome-bonus', title: 'Welcome', kind: 'popup', audience: 'guest', showAfterLogin: true }),
  entry(5, { sysname: 'by-link', title: 'By link only', kind: 'popup', audience: 'player' }),
];

/** The server's answers: the content popups and the stored list of seen sysnames. */
function server(seen: string | null, popups: unknown[] = POPUPS) {
  return mockApi({
    '/cms/api/popups': () => strapi(popups),
    'storage.get': seen,
    'storage.set': 1,
  });
}

const names = dialogNames;

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(async () => {
  // The queue first: closing the open dialogs would open the next queued one.
  for (const waiting of dialogs.store.get().queued) dialogs.close(waiting.id);
  act(() => {
    dialogs.closeAll({ immediate: true });
  });
  vi.restoreAllMocks();
  await activateLocale('en');
});

describe('reading the after-login mark of a content popup', () => {
  it('is true only for a true boolean (or the text "true"), false when absent or odd', () => {
    const read = (showAfterLogin: unknown) => toContentPopup({ sysname: 'a', title: 'A', showAfterLogin })?.showAfterLogin;
    expect([read(true), read('true'), read(false), read(undefined), read(1), read('yes'), read({})]).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});

describe('the stored list of seen campaign popups', () => {
  it('reads a JSON array of names and counts anything else as none', () => {
    expect(parseSeenCampaignPopups('["a","b"]')).toEqual(['a', 'b']);
    expect(parseSeenCampaignPopups('["a",3,null,{"b":1},"c"]')).toEqual(['a', 'c']);
    expect(parseSeenCampaignPopups(null)).toEqual([]);
    expect(parseSeenCampaignPopups('not json [')).toEqual([]);
    expect(parseSeenCampaignPopups('{"weekend-reload":true}')).toEqual([]);
    expect(parseSeenCampaignPopups('"weekend-reload"')).toEqual([]);
  });
});

describe('campaign popups after login (SPEC §4)', () => {
  it('queues every unseen after-login popup whose audience includes players, in content order', async () => {
    const api = server(null);

    const ids = await queueCampaignPopups(player());

    expect(ids).toHaveLength(2);
    expect([...names().open, ...names().queued]).toEqual(['popup:weekend-reload', 'popup:vip-night']);
    expect(api.calls('/cms/api/popups')[0]?.url.searchParams.get('locale')).toBe('en');
    expect(api.calls('storage.get')[0]?.url.searchParams.get('key')).toBe('already_seen_campaign_popups');
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('waits behind a dialog already open instead of opening on top', async () => {
    server(null);
    dialogs.open({ name: 'socialRegistration', label: 'Finish registration', preventClose: true, render: () => <p>form</p> });

    await queueCampaignPopups(player());

    expect(names()).toEqual({ open: ['socialRegistration'], queued: ['popup:weekend-reload', 'popup:vip-night'] });
  });

  it('leaves out the popups already seen (names compared case-insensitively)', async () => {
    const api = server('["Weekend-Reload"]');

    expect(await queueCampaignPopups(player())).toHaveLength(1);

    expect([...names().open, ...names().queued]).toEqual(['popup:vip-night']);
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('shows nothing when every campaign was seen', async () => {
    server('["weekend-reload","vip-night"]');

    expect(await queueCampaignPopups(player())).toEqual([]);
    expect(names()).toEqual({ open: [], queued: [] });
  });

  it('asks nothing for a guest', async () => {
    const api = server(null);

    expect(await queueCampaignPopups(GUEST)).toEqual([]);

    expect(api.fetch).not.toHaveBeenCalled();
    expect(names()).toEqual({ open: [], queued: [] });
  });

  it('does not ask the storage when the content marks no popup for after login', async () => {
    const api = server(null, [POPUPS[2], POPUPS[3]]);

    expect(await queueCampaignPopups(player())).toEqual([]);

    expect(api.calls('/cms/api/popups')).toHaveLength(1);
    expect(api.calls('storage.get')).toHaveLength(0);
  });

  it('treats garbage in the storage as nothing seen', async () => {
    server('{not json');

    expect(await queueCampaignPopups(player())).toHaveLength(2);
    expect([...names().open, ...names().queued]).toEqual(['popup:weekend-reload', 'popup:vip-night']);
  });

  it('adds each closed popup to the stored list, keeping the names already there', async () => {
    const api = server('["old-campaign", 42]');
    renderDialogs();
    await act(() => queueCampaignPopups(player()));

    const first = await screen.findByRole('dialog', { name: 'Weekend reload' });
    expect(within(first).getByText('50% on Saturdays')).toBeVisible();
    fireEvent.click(within(first).getByRole('button', { name: 'OK' }));
    await waitFor(() => {
      expect(api.calls('storage.set')).toHaveLength(1);
    });
    const stored = () => api.calls('storage.set').map((call) => [call.body?.get('key'), call.body?.get('value')]);
    expect(stored()).toEqual([['already_seen_campaign_popups', '["old-campaign","weekend-reload"]']]);

    // The next queued popup opens once the first is gone.
    const second = await screen.findByRole('dialog', { name: 'VIP night' });
    fireEvent.click(within(second).getByRole('button', { name: 'OK' }));
    await waitFor(() => {
      expect(api.calls('storage.set')).toHaveLength(2);
    });
    expect(stored()[1]).toEqual(['already_seen_campaign_popups', '["old-campaign","weekend-reload","vip-night"]']);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not count a popup swept away by a route change as seen', async () => {
    const api = server('[]');
    renderDialogs();
    await act(() => queueCampaignPopups(player()));
    await screen.findByRole('dialog', { name: 'Weekend reload' });

    act(() => {
      dialogs.closeAll({ reason: 'route' });
    });
    // The next queued one takes its place; nothing was remembered.
    await screen.findByRole('dialog', { name: 'VIP night' });
    expect(api.calls('storage.set')).toHaveLength(0);
  });

  it('skips the popups when the content or the storage cannot be read, and only warns', async () => {
    const api = mockApi({ '/cms/api/popups': () => strapi(null, 500), 'storage.get': null });
    expect(await queueCampaignPopups(player())).toEqual([]);

    api.on('/cms/api/popups', () => strapi(POPUPS));
    api.on('storage.get', apiError('InternalServerErrorException', 500));
    expect(await queueCampaignPopups(player())).toEqual([]);

    expect(names()).toEqual({ open: [], queued: [] });
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it('a failed save only warns', async () => {
    const api = server(null, [POPUPS[1]]);
    api.on('storage.set', apiError('StorageQuotaExceededException', 400));
    renderDialogs();
    await act(() => queueCampaignPopups(player()));

    fireEvent.click(within(await screen.findByRole('dialog', { name: 'VIP night' })).getByRole('button', { name: 'OK' }));

    await waitFor(() => {
      expect(console.warn).toHaveBeenCalledWith('seen campaign popup not remembered', expect.anything());
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
