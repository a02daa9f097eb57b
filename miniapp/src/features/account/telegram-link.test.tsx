import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  dialogs.closeAll({ immediate: true });
  delete (window as unknown as { Telegram?: unknown }).Telegram;
  window.localStorage.clear();
  await activateLocale('en');
});

const signedIn = { 'account.getInfo': player(), 'account.getprofileinfo': { contacts: [] } };
const notLinked = { available: true, bot_id: 7000000001, bot_username: 'croupier_bot', linked: false, only_way_in: false };

describe('Telegram in the profile security page', () => {
  it('links through the Login Widget and sends what Telegram answered', async () => {
    const auth = vi.fn((options: { bot_id: number }, callback: (data: Record<string, unknown>) => void) => {
      callback({ id: 42, first_name: 'Ann', auth_date: 1_700_000_000, hash: 'ab12' });
      return options;
    });
    (window as unknown as { Telegram: unknown }).Telegram = { Login: { auth } };
    let linked = false;
    const api = mockApi({
      ...signedIn,
      'account.getTelegramLink': () => ({ ...notLinked, linked }),
      'account.linkTelegram': () => {
        linked = true;
        return player();
      },
    });
    renderApp('/profile/security');
    const section = await screen.findByTestId('telegram-link');
    fireEvent.click(within(section).getByRole('button', { name: 'Link Telegram' }));
    await waitFor(() => { expect(section).toHaveAttribute('data-linked', 'true'); });
    expect(auth.mock.calls[0]?.[0]).toMatchObject({ bot_id: 7000000001, request_access: 'write', lang: 'en' });
    const body = api.calls('account.linkTelegram')[0]?.body;
    expect([body?.get('id'), body?.get('first_name'), body?.get('auth_date'), body?.get('hash')]).toEqual(['42', 'Ann', '1700000000', 'ab12']);
  });

  it('says why it cannot unlink when Telegram is the only way in, and calls nothing', async () => {
    const api = mockApi({ ...signedIn, 'account.getTelegramLink': { ...notLinked, linked: true, only_way_in: true }, 'account.unlinkTelegram': 1 });
    renderApp('/profile/security');
    const section = await screen.findByTestId('telegram-link');
    fireEvent.click(within(section).getByRole('button', { name: 'Unlink Telegram' }));
    const dialog = await screen.findByTestId('telegram-unlink-dialog');
    expect(dialog).toHaveTextContent('Telegram is the only way you sign in to this account.');
    expect(within(dialog).queryByTestId('telegram-unlink-confirm')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Understood' }));
    expect(api.calls('account.unlinkTelegram')).toHaveLength(0);
  });

  it('asks for a confirm before unlinking an account that has a password', async () => {
    let state = { ...notLinked, linked: true };
    const api = mockApi({
      ...signedIn,
      'account.getTelegramLink': () => state,
      'account.unlinkTelegram': () => {
        state = { ...state, linked: false };
        return 1;
      },
    });
    renderApp('/profile/security');
    const section = await screen.findByTestId('telegram-link');
    fireEvent.click(within(section).getByRole('button', { name: 'Unlink Telegram' }));
    fireEvent.click(await screen.findByTestId('telegram-unlink-confirm'));
    await waitFor(() => { expect(section).toHaveAttribute('data-linked', 'false'); });
    expect(api.calls('account.unlinkTelegram')).toHaveLength(1);
  });
});
