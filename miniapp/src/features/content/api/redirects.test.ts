import { describe, expect, it } from 'vitest';
import { matchRedirect, toRedirects } from './redirects';

// The demo content's redirects (webapp-server/content/global/redirect.json), as the API answers them.
const REDIRECTS = toRedirects([
  { id: 1, from_url: '/casino', to_url: '/gamehall' },
  { id: 2, from_url: '/promo/*', to_url: '/promotions/*' },
  { id: 3, from_url: '/help', to_url: '/support' },
  { id: 4, from_url: '/news/*', to_url: 'https://news.croupier.example/*' },
  { id: 5, from_url: '/evil', to_url: '//evil.example' },
  { id: 6, from_url: '', to_url: '/x' },
]);

describe('content redirects (SPEC §2)', () => {
  it('drops entries without both urls', () => {
    expect(REDIRECTS).toHaveLength(5);
  });

  it('matches an exact from_url, case-insensitively, trailing slash ignored', () => {
    expect(matchRedirect('/casino', REDIRECTS)).toEqual({ external: false, path: '/gamehall' });
    expect(matchRedirect('/Casino/', REDIRECTS)).toEqual({ external: false, path: '/gamehall' });
    expect(matchRedirect('/casinos', REDIRECTS)).toBeNull();
  });

  it('carries what a * matched into the target', () => {
    expect(matchRedirect('/promo/summer/big', REDIRECTS)).toEqual({ external: false, path: '/promotions/summer/big' });
    expect(matchRedirect('/promo', REDIRECTS)).toBeNull();
  });

  it('sends external targets off the site', () => {
    expect(matchRedirect('/news/today', REDIRECTS)).toEqual({ external: true, url: 'https://news.croupier.example/today' });
  });

  it('refuses protocol-relative targets', () => {
    expect(matchRedirect('/evil', REDIRECTS)).toBeNull();
  });
});
