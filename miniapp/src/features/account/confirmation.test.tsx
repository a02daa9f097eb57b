import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '@/lib/i18n';
import { apiError, mockApi } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

afterEach(async () => {
  window.localStorage.clear();
  await activateLocale('en');
});

describe('the confirmation link', () => {
  it('confirms the contact once and lands on /confirmation/success', async () => {
    const api = mockApi({ 'account.confirmContactLink': 1 });
    const { router } = renderApp('/confirmation?contact=email%3Ame%40example.com&code=123456');
    expect(await screen.findByTestId('confirmation-success')).toHaveTextContent('Your contact is confirmed.');
    expect(router.state.location.pathname).toBe('/confirmation/success');
    const calls = api.calls('account.confirmContactLink');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body?.get('contact')).toBe('email:me@example.com');
    expect(calls[0]?.body?.get('code')).toBe('123456');
  });

  it('says when the code is used or expired, in French, with the way to a new one', async () => {
    await activateLocale('fr');
    mockApi({ 'account.confirmContactLink': apiError('InvalidParameterException', 422, { code: ['CODE_EXPIRED'] }) });
    renderApp('/fr/confirmation?contact=email%3Ame%40example.com&code=123456');
    const failed = await screen.findByTestId('confirmation-failed');
    expect(failed).toHaveTextContent('La confirmation n’a pas abouti');
    expect(screen.getByRole('link', { name: 'Aller à mon profil' })).toHaveAttribute('href', '/fr/profile/settings');
  });

  it('calls nothing for an incomplete link', async () => {
    const api = mockApi({ 'account.confirmContactLink': 1 });
    renderApp('/confirmation?contact=email%3Ame%40example.com');
    expect(await screen.findByTestId('confirmation-failed')).toHaveTextContent('This confirmation link is incomplete.');
    await waitFor(() => { expect(api.calls('account.confirmContactLink')).toHaveLength(0); });
  });
});
