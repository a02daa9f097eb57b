import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG, siteConfigStore } from '@/config/site-config';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { activateLocale } from '@/lib/i18n';
import { mockApi } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';

/** A Strapi-style answer of the content service. */
function strapi(data: unknown): Response {
  return new Response(JSON.stringify({ data, meta: {} }), { headers: { 'Content-Type': 'application/json' } });
}

const single = (attributes: Record<string, unknown>) => strapi({ id: 1, attributes });
/** A media field as the content service sends it. */
const media = (url: string) => ({ data: { id: 9, attributes: { url } } });
const localeOf = (url: URL) => url.searchParams.get('locale');

afterEach(async () => {
  siteConfigStore.set(DEFAULT_SITE_CONFIG);
  dialogs.closeAll({ immediate: true });
  window.localStorage.clear();
  await activateLocale('en');
});

describe('logos from the content (SPEC §3 site config)', () => {
  it('shows the content logo in the header, with its phone variant', async () => {
    mockApi({
      '/cms/api/prazer-config': () =>
        single({ logo: media('/uploads/brand-wide.svg'), logoMobile: media('/uploads/brand-chip.svg') }),
    });
    renderApp('/');

    const home = await screen.findByRole('link', { name: 'Croupier home' });
    await waitFor(() => {
      expect(home.querySelector('img')).toHaveAttribute('src', '/uploads/brand-wide.svg');
    });
    expect(home.querySelector('source')).toHaveAttribute('srcset', '/uploads/brand-chip.svg');
    expect(home.querySelector('source')).toHaveAttribute('media', '(max-width: 767px)');
  });

  it('keeps the built-in mark and name when the content has no logo', async () => {
    mockApi({ '/cms/api/prazer-config': () => single({ logo: { data: null }, siteName: 'Croupier Demo' }) });
    renderApp('/');

    await waitFor(() => {
      expect(siteConfigStore.get().siteName).toBe('Croupier Demo');
    });
    const home = await screen.findByRole('link', { name: 'Croupier home' });
    expect(within(home).getByText('Croupier')).toBeVisible();
    expect(home.querySelector('img')).toBeNull();
  });
});

describe('loader from the content (SPEC §3 site config)', () => {
  it('shows the content loader image and text while a page loads', async () => {
    mockApi({
      '/cms/api/prazer-config': () => single({ loader: { image: media('/uploads/dice.svg'), text: 'Rolling the dice…' } }),
      '/cms/api/redirects': () => strapi([]),
      // The page's content never arrives, so its loader stays.
      '/cms/api/pages': () => new Response(new ReadableStream()),
    });
    renderApp('/about');

    const loader = await screen.findByRole('status', { name: 'Rolling the dice…' });
    expect(loader.querySelector('img')).toHaveAttribute('src', '/uploads/dice.svg');
    expect(within(loader).getByText('Rolling the dice…')).toBeVisible();
  });

  it('is the translated spinner when the content has no loader', async () => {
    mockApi({
      '/cms/api/prazer-config': () => single({ loader: { image: { data: null } } }),
      '/cms/api/redirects': () => strapi([]),
      '/cms/api/pages': () => new Response(new ReadableStream()),
    });
    renderApp('/fr/about');

    const loader = await screen.findByRole('status', { name: 'Chargement…' });
    expect(loader.querySelector('img')).toBeNull();
  });
});

describe('registration terms label from the content (SPEC §3 auth config)', () => {
  const authConfig = (labels: Record<string, string>) => ({
    '/cms/api/auth-config': ({ url }: { url: URL }) =>
      single({ terms: { url: '/house-rules', label: labels[localeOf(url) ?? 'en'] } }),
  });

  it('uses the content label of the page language, its marked part linking to the terms', async () => {
    mockApi(authConfig({ en: 'I am of age and accept the <terms>house rules</terms>.', fr: 'Je suis majeur et j’accepte le <terms>règlement</terms>.' }));
    renderApp('/?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Register' });
    expect(await within(dialog).findByRole('checkbox', { name: 'I am of age and accept the house rules.' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'house rules' })).toHaveAttribute('href', '/house-rules');
  });

  it('speaks French under /fr', async () => {
    mockApi(authConfig({ en: 'I am of age and accept the <terms>house rules</terms>.', fr: 'Je suis majeur et j’accepte le <terms>règlement</terms>.' }));
    renderApp('/fr?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Inscription' });
    expect(await within(dialog).findByRole('checkbox', { name: 'Je suis majeur et j’accepte le règlement.' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'règlement' })).toHaveAttribute('href', '/fr/house-rules');
  });

  it('still links to the terms when the label marks no link', async () => {
    mockApi(authConfig({ en: 'Adults only', fr: 'Réservé aux adultes' }));
    renderApp('/fr?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Inscription' });
    expect(await within(dialog).findByRole('checkbox', { name: 'Réservé aux adultes (les lire)' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'les lire' })).toHaveAttribute('href', '/fr/house-rules');
  });

  it('is the translated default when the content has no label', async () => {
    mockApi({ '/cms/api/auth-config': () => single({ terms: { url: '/house-rules' } }) });
    renderApp('/fr?show_popup_reg=1');
    const dialog = await screen.findByRole('dialog', { name: 'Inscription' });
    // The content's terms url has arrived, its label has not.
    await waitFor(() => {
      expect(within(dialog).getByRole('link', { name: 'conditions générales' })).toHaveAttribute('href', '/fr/house-rules');
    });
    expect(within(dialog).getByRole('checkbox', { name: 'J’ai 18 ans ou plus et j’accepte les conditions générales' })).toBeInTheDocument();
  });
});
