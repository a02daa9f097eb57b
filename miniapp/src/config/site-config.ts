import { createStore, useStore } from '@/lib/store';

// SPEC §3 "Content-driven configuration". The headless content service will supply these; until
// it does the site runs on the defaults below (SPEC §9's constants where SPEC gives them). Code
// reads the configuration only through `useSiteConfig` / `siteConfigStore`, so feeding it from
// the content API later changes this file alone.

/** SPEC §3 "Balance-refresh settings"; SPEC §9 defaults: 10 s interval, 1 s between clicks, off after 5 min. */
export interface BalanceRefreshSettings {
  countSecondsForDelayBetweenClick: number;
  isEnabledInterval: boolean;
  countSecondsForInterval: number;
  isEnabledTurnOffRequests: boolean;
  countMinutesAfterWhichRequestsTurnedOff: number;
  isEnabledRequestsAfterClick: boolean;
}

export type AuthType = 'email' | 'phone';

/** The auth config: which registration fields and sign-in types the site offers. */
export interface AuthConfig {
  registration: {
    /** Offer the optional public nickname. */
    fakename: boolean;
    /** Offer the optional promo code. */
    promoCode: boolean;
    /** Let the player choose the account currency (else the default currency is used). */
    currency: boolean;
  };
  /** Login contacts offered at registration, first is the default. */
  authTypes: readonly AuthType[];
  /** Where the terms and conditions live (a site path). */
  termsUrl: string;
  /** Subscribe the new player to news by default. */
  notify: boolean;
  markBetting: boolean;
}

export interface CashierConfig {
  /** Where the balance detail opens: from the header cashier button or from the profile menu. */
  balanceDetail: 'header-cashier' | 'header-profile-menu';
  depositView: 'ContainerView' | 'ContainerScrollView';
  /** Show the registration hint (SPEC §4). */
  registrationHint: boolean;
}

export interface SiteSwitches {
  twoFactor: boolean;
  identityVerification: boolean;
  responsibleGaming: boolean;
  betHistory: boolean;
  bettingNotice: boolean;
  clickableTitle: boolean;
  balanceRefresh: boolean;
  loyalty: boolean;
}

export interface ValidatorConfig {
  /** A postcode pattern replacing SPEC's "up to 8 digits". */
  postcodePattern: string | null;
  /** Phone masks by country calling code, with SPEC §5 mask tokens. */
  phoneMasks: Readonly<Record<string, string>>;
}

export interface MenuItem {
  /** A key under `menu.` in the locale files. */
  label: 'casino' | 'live' | 'betting' | 'promotions' | 'tournaments' | 'jackpots' | 'loyalty' | 'support' | 'home' | 'profile' | 'cashier' | 'winners' | 'providers' | 'offers' | 'responsibleGaming';
  /** An unprefixed site path. */
  to: string;
  icon: 'home' | 'cards' | 'live' | 'ball' | 'gift' | 'trophy' | 'crown' | 'star' | 'chat' | 'user' | 'wallet' | 'shield';
}

export interface CommonConfig {
  menu: readonly MenuItem[];
  mobileBottomMenu: readonly MenuItem[];
  footer: readonly MenuItem[];
  /** Confirm-contact hint switch (SPEC §4). */
  confirmHint: boolean;
}

export interface SiteConfig {
  switches: SiteSwitches;
  balanceRefresh: BalanceRefreshSettings;
  auth: AuthConfig;
  cashier: CashierConfig;
  validator: ValidatorConfig;
  common: CommonConfig;
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  switches: {
    twoFactor: true,
    identityVerification: true,
    responsibleGaming: true,
    betHistory: true,
    bettingNotice: false,
    clickableTitle: true,
    balanceRefresh: true,
    loyalty: true,
  },
  balanceRefresh: {
    countSecondsForDelayBetweenClick: 1,
    isEnabledInterval: true,
    countSecondsForInterval: 10,
    isEnabledTurnOffRequests: true,
    countMinutesAfterWhichRequestsTurnedOff: 5,
    isEnabledRequestsAfterClick: true,
  },
  auth: {
    registration: { fakename: true, promoCode: true, currency: true },
    authTypes: ['email', 'phone'],
    termsUrl: '/terms',
    notify: true,
    markBetting: false,
  },
  cashier: {
    balanceDetail: 'header-profile-menu',
    depositView: 'ContainerView',
    registrationHint: true,
  },
  validator: {
    postcodePattern: null,
    phoneMasks: { '1': '(###) ###-####', '33': '# ## ## ## ##', '44': '#### ######' },
  },
  common: {
    menu: [
      { label: 'casino', to: '/gamehall', icon: 'cards' },
      { label: 'live', to: '/gamehall?category=live', icon: 'live' },
      { label: 'betting', to: '/betting', icon: 'ball' },
      { label: 'promotions', to: '/promotions', icon: 'gift' },
      { label: 'tournaments', to: '/tournaments', icon: 'trophy' },
      { label: 'jackpots', to: '/jackpots', icon: 'crown' },
      { label: 'loyalty', to: '/loyalty', icon: 'star' },
    ],
    mobileBottomMenu: [
      { label: 'home', to: '/', icon: 'home' },
      { label: 'casino', to: '/gamehall', icon: 'cards' },
      { label: 'betting', to: '/betting', icon: 'ball' },
      { label: 'promotions', to: '/promotions', icon: 'gift' },
      { label: 'support', to: '/support', icon: 'chat' },
    ],
    footer: [
      { label: 'promotions', to: '/promotions', icon: 'gift' },
      { label: 'offers', to: '/offers', icon: 'gift' },
      { label: 'providers', to: '/providers', icon: 'cards' },
      { label: 'winners', to: '/winners', icon: 'trophy' },
      { label: 'support', to: '/support', icon: 'chat' },
      { label: 'responsibleGaming', to: '/responsible-game', icon: 'shield' },
    ],
    confirmHint: true,
  },
};

export const siteConfigStore = createStore<SiteConfig>(DEFAULT_SITE_CONFIG);

export function useSiteConfig(): SiteConfig {
  return useStore(siteConfigStore);
}
