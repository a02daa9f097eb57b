import { describe, expect, it } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '@/config/site-config';
import { flatten } from './api/cms';
import { siteConfigFromContent } from './site-config-content';

const logo = { data: { id: 1, attributes: { url: '/uploads/croupier-logo.svg', mime: 'image/svg+xml', name: 'l' } } };

// Shaped as the demo content (webapp-server/content/en/*.json) comes out of /cms/api, flattened.
const CONTENT = {
  site: flatten({
    data: {
      id: 1,
      attributes: {
        siteName: 'Croupier Demo',
        logo,
        logoMobile: { data: { attributes: { url: '/uploads/croupier-chip.svg' } } },
        loader: { image: { data: { id: 4, attributes: { url: '/uploads/loader.svg' } } }, text: 'Shuffling the deck…', minDurationMs: 300 },
        switches: { twoFactor: false, loyalty: true, unknownSwitch: true, betHistory: 'yes' },
        balanceRefresh: { countSecondsForInterval: 30, isEnabledInterval: false, countMinutesAfterWhichRequestsTurnedOff: -1 },
        validator: { postcodePattern: '^[0-9]{5}$', phoneMasks: [{ code: '33', mask: '# ## ## ## ##' }] },
        popupFallbacks: { data: [{ id: 2, attributes: { sysname: 'fallback', title: 'Not available', kind: 'confirm' } }] },
      },
    },
  }),
  common: {
    menu: [
      { label: 'casino', title: 'Casino', to: '/gamehall', icon: 'cards' },
      { title: 'Faq', to: '/faq', icon: 'unknown-icon' },
      { label: 'live', icon: 'live' },
    ],
    mobileBottomMenu: 'not a list',
    footer: {
      text: 'Play responsibly.',
      copyright: '© Croupier',
      columns: [{ title: 'Help', links: [{ title: 'FAQ', to: '/faq' }] }, { title: 'Empty', links: [] }],
    },
    confirmHint: { enabled: false, days: 5 },
  },
  auth: {
    registration: { fakename: false, promoCode: true, currency: true },
    authTypes: ['phone', 'fax'],
    terms: { url: '/terms-and-conditions', label: 'I accept' },
    notify: false,
    socialProviders: [{ name: 'openid', title: 'Single sign-on', icon: '/uploads/icon-key.svg' }, { title: 'no name' }],
  },
  cashier: {
    balanceDetail: 'header-cashier',
    depositView: 'Sideways',
    registrationHint: { enabled: false },
    amountList: [{ currency: 'EUR', amounts: [10, 25, 'x'] }],
    currencies: [{ code: 'EUR', symbol: '€' }],
  },
  games: { game: { visibleFullScreen: 'all', canVisibleFavoriteIcon: false } },
};

describe('site configuration from the content service (SPEC §3)', () => {
  const config = siteConfigFromContent(CONTENT);

  it('takes every well-formed value from the content', () => {
    expect(config.siteName).toBe('Croupier Demo');
    expect(config.logo).toBe('/uploads/croupier-logo.svg');
    expect(config.logoMobile).toBe('/uploads/croupier-chip.svg');
    expect(config.loader).toEqual({ image: '/uploads/loader.svg', text: 'Shuffling the deck…' });
    expect(config.switches.twoFactor).toBe(false);
    expect(config.balanceRefresh.countSecondsForInterval).toBe(30);
    expect(config.balanceRefresh.isEnabledInterval).toBe(false);
    expect(config.validator).toEqual({ postcodePattern: '^[0-9]{5}$', phoneMasks: { '33': '# ## ## ## ##' } });
    expect(config.auth.registration.fakename).toBe(false);
    expect(config.auth.authTypes).toEqual(['phone']);
    expect(config.auth.termsUrl).toBe('/terms-and-conditions');
    expect(config.auth.termsLabel).toBe('I accept');
    expect(config.auth.notify).toBe(false);
    expect(config.auth.socialProviders).toEqual([{ name: 'openid', title: 'Single sign-on', icon: '/uploads/icon-key.svg' }]);
    expect(config.cashier.balanceDetail).toBe('header-cashier');
    expect(config.cashier.registrationHint).toBe(false);
    expect(config.cashier.amountList).toEqual([{ currency: 'EUR', amounts: [10, 25] }]);
    expect(config.common.menu).toEqual([
      { label: 'casino', title: 'Casino', to: '/gamehall', icon: 'cards' },
      { label: null, title: 'Faq', to: '/faq', icon: 'star' },
    ]);
    expect(config.common.footer).toEqual([{ title: 'Help', links: [{ label: null, title: 'FAQ', to: '/faq', icon: 'star' }] }]);
    expect(config.common.footerText).toBe('Play responsibly.');
    expect(config.common.confirmHint).toBe(false);
    expect(config.games.visibleFullScreen).toBe('all');
    expect(config.games.canVisibleFavoriteIcon).toBe(false);
    expect(config.popupFallbacks.map((popup) => [popup.sysname, popup.kind])).toEqual([['fallback', 'confirm']]);
  });

  it('keeps the default for anything missing or malformed', () => {
    const bare = siteConfigFromContent({
      site: { logo: null, loader: { image: null, text: '  ' } },
      common: null,
      auth: { terms: { label: '' } },
      cashier: null,
      games: null,
    });
    expect(bare.logo).toBeNull();
    expect(bare.loader).toEqual(DEFAULT_SITE_CONFIG.loader);
    expect(bare.auth.termsLabel).toBeNull();
    expect(config.switches.betHistory).toBe(DEFAULT_SITE_CONFIG.switches.betHistory);
    expect('unknownSwitch' in config.switches).toBe(false);
    expect(config.balanceRefresh.countMinutesAfterWhichRequestsTurnedOff).toBe(5);
    expect(config.common.mobileBottomMenu).toBe(DEFAULT_SITE_CONFIG.common.mobileBottomMenu);
    expect(config.cashier.depositView).toBe('ContainerView');
    expect(config.games.canAccessSlotWithZeroBalance).toBe(false);
  });

  it('is the defaults when the content service answered nothing', () => {
    expect(siteConfigFromContent({ site: null, common: null, auth: null, cashier: null, games: null })).toEqual(DEFAULT_SITE_CONFIG);
  });
});
