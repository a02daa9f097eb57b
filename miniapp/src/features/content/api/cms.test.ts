import { afterEach, describe, expect, it, vi } from 'vitest';
import { cmsGet, cmsUrl, flatten } from './cms';

const media = (url: string) => ({
  data: { id: 9, attributes: { url, name: 'x.svg', alternativeText: '', width: 1, height: 1, mime: 'image/svg+xml' } },
});

describe('flatten (SPEC §3: wrappers removed, media become their url)', () => {
  it('unwraps a single entry with components, media, relations and lists', () => {
    const answer = {
      data: {
        id: 1,
        attributes: {
          siteName: 'Croupier',
          logo: media('/uploads/logo.svg'),
          switches: { id: 3, twoFactor: true },
          popupFallbacks: { data: [{ id: 2, attributes: { sysname: 'fallback', image: { data: null } } }] },
          menu: [{ id: 4, label: 'casino', icon: 'cards' }],
        },
      },
      meta: {},
    };
    expect(flatten(answer)).toEqual({
      id: 1,
      siteName: 'Croupier',
      logo: '/uploads/logo.svg',
      switches: { id: 3, twoFactor: true },
      popupFallbacks: [{ id: 2, sysname: 'fallback', image: null }],
      menu: [{ id: 4, label: 'casino', icon: 'cards' }],
    });
  });

  it('keeps a component that merely has a data or attributes key among others', () => {
    const value = { data: 'x', other: 1, attributes: { a: 1 } };
    expect(flatten(value)).toEqual(value);
  });
});

describe('cmsGet', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('asks /cms/api with the locale and bracket parameters, and flattens the answer', async () => {
    const fetchMock = vi.fn<typeof fetch>(() =>
      Promise.resolve(new Response(JSON.stringify({ data: [{ id: 5, attributes: { slug: 'faq' } }], meta: {} }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(cmsGet('pages', { 'filters[slug][$eqi]': 'FAQ' }, { locale: 'fr' })).resolves.toEqual([{ id: 5, slug: 'faq' }]);
    const requested = fetchMock.mock.calls[0]?.[0];
    const url = new URL(typeof requested === 'string' ? requested : '', 'http://x');
    expect(url.pathname).toBe('/cms/api/pages');
    expect(url.searchParams.get('filters[slug][$eqi]')).toBe('FAQ');
    expect(url.searchParams.get('locale')).toBe('fr');
  });

  it('answers null for a 404 and throws on other failures', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(() => Promise.resolve(new Response('{}', { status: 404 }))));
    await expect(cmsGet('common')).resolves.toBeNull();
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(() => Promise.resolve(new Response('{}', { status: 500 }))));
    await expect(cmsGet('common')).rejects.toThrow('HTTP 500');
  });

  it('leaves the locale out of unlocalized types', () => {
    expect(cmsUrl('redirects', { 'pagination[pageSize]': 100 }, null)).toBe('/cms/api/redirects?pagination%5BpageSize%5D=100');
  });
});
