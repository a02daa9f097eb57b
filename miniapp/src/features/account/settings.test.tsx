import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { mockApi, player } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { shownFields, type PersonalDataField } from './settings-page';

afterEach(async () => {
  window.localStorage.clear();
  await activateLocale('en');
});

const field = (name: string, required: boolean): PersonalDataField => ({ name, type: 'text', required, max_length: 64, filled: false });
const form = [field('first_name', true), field('last_name', true), field('postcode', true), field('sex', false)];

describe('the settings page', () => {
  it('shows the fields the server’s form names, in order, with the required ones marked', () => {
    expect(shownFields(form)).toEqual([
      { name: 'first_name', required: true },
      { name: 'last_name', required: true },
      { name: 'sex', required: false },
      { name: 'postcode', required: true },
    ]);
    expect(shownFields(undefined)).toHaveLength(9);
  });

  it('renders only those fields, and coming from a withdrawal checks the required ones before saving', async () => {
    const api = mockApi({
      'account.getInfo': player({ fakename: 'Ace777' }),
      'account.getprofileinfo': { contacts: [] },
      'Account.getPersonalDataFields': form,
      'account.saveProfileInfo': 1,
      'account.changefakename': 1,
    });
    renderApp('/profile/settings?from=withdraw');
    expect(await screen.findByLabelText('Postcode *')).toBeInTheDocument();
    expect(screen.queryByLabelText('Region')).toBeNull();
    expect(screen.queryByLabelText(/Address/)).toBeNull();
    fireEvent.click(within(screen.getByRole('form', { name: 'Personal data' })).getByRole('button', { name: 'Save' }));
    await waitFor(() => { expect(screen.getAllByText('Field is required').length).toBeGreaterThanOrEqual(3); });
    expect(api.calls('account.saveProfileInfo')).toHaveLength(0);

    // The nickname: the fakename rule first, then one call.
    const nickname = screen.getByRole('textbox', { name: 'Nickname' });
    expect(nickname).toHaveValue('Ace777');
    fireEvent.change(nickname, { target: { value: 'a b' } });
    fireEvent.click(within(screen.getByTestId('nickname')).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Min length is 4')).toBeInTheDocument();
    fireEvent.change(nickname, { target: { value: 'HighRoller9' } });
    fireEvent.click(within(screen.getByTestId('nickname')).getByRole('button', { name: 'Save' }));
    await waitFor(() => { expect(api.calls('account.changefakename')).toHaveLength(1); });
    expect(api.calls('account.changefakename')[0]?.body?.get('fakename')).toBe('HighRoller9');
  });
});
