import type { DialogKind, DialogSize } from '@/lib/dialogs/dialog-stack';
import { createStore, useStore } from '@/lib/store';

// SPEC §3 "Content-driven configuration". The headless content service supplies these
// (`features/content/site-config-content.ts` maps its answers onto this shape and fills the store
// per locale); the defaults below (SPEC §9's constants where SPEC gives them) are what the site
// runs on until the content arrives, and whatever the content leaves out or gets wrong.

/** A popup defined in the content service (SPEC §1 "popups defined by content"). */
export interface ContentPopup {
  id: number;
  sysname: string;
  title: string;
  text: string;
  kind: DialogKind;
  size: DialogSize;
  buttonTitle: string | null;
  /** An unprefixed site path or an external address; null: the button only closes. */
  buttonUrl: string | null;
  image: string | null;
  /** Who may see it: guests, signed-in players, or everyone. */
  audience: 'guest' | 'player' | 'all';
  /** A campaign popup queued once for signed-in players after login (SPEC §4). */
  showAfterLogin?: boolean;
}

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

export interface SocialProvider {
  /** The `service` name of `/oauth/init`. */
  name: string;
  title: string;
  icon: string | null;
}

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
  /**
   * The terms checkbox text from the content (in the page's language), its link to `termsUrl`
   * marked `<terms>…</terms>` as in the translations; null: the translated default.
   */
  termsLabel: string | null;
  /** Social sign-in services offered (`/oauth/init?service=`). */
  socialProviders: readonly SocialProvider[];
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
  /** Deposit amount presets per currency. */
  amountList: readonly { currency: string; amounts: readonly number[] }[];
  currencies: readonly { code: string; symbol: string }[];
}

/** SPEC §3 "Game config"; `visibleFullScreen` says where games open full screen. */
export interface GamesConfig {
  visibleFullScreen: 'all' | 'telegram' | 'product' | 'none';
  canAccessSlotWithZeroBalance: boolean;
  canVisibleFavoriteIcon: boolean;
  contentViewType: string;
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
  /** The loyalty characters (the profile's character choice). */
  characters: boolean;
}

export interface ValidatorConfig {
  /** A postcode pattern replacing SPEC's "up to 8 digits". */
  postcodePattern: string | null;
  /** Phone masks by country calling code, with SPEC §5 mask tokens. */
  phoneMasks: Readonly<Record<string, string>>;
}

export const MENU_LABELS = [
  'casino', 'live', 'betting', 'promotions', 'tournaments', 'jackpots', 'loyalty', 'support', 'home', 'profile',
  'cashier', 'winners', 'providers', 'offers', 'responsibleGaming',
] as const;
export const MENU_ICONS = ['home', 'cards', 'live', 'ball', 'gift', 'trophy', 'crown', 'star', 'chat', 'user', 'wallet', 'shield'] as const;

export type MenuLabel = (typeof MENU_LABELS)[number];

export interface MenuItem {
  /** A key under `menu.` in the locale files, the text when the content gives no title. */
  label: (typeof MENU_LABELS)[number] | null;
  /** The content's own text (already in the page's language). */
  title?: string | null;
  /** An unprefixed site path. */
  to: string;
  icon: (typeof MENU_ICONS)[number];
}

export interface FooterColumn {
  title: string | null;
  links: readonly MenuItem[];
}

export interface CommonConfig {
  menu: readonly MenuItem[];
  mobileBottomMenu: readonly MenuItem[];
  footer: readonly FooterColumn[];
  /** The footer's legal text and copyright from the content; null: the translated defaults. */
  footerText: string | null;
  copyright: string | null;
  /** Confirm-contact hint switch (SPEC §4). */
  confirmHint: boolean;
}

/** SPEC §3 site config "loader": what a page shows while it loads. */
export interface LoaderConfig {
  /** An image url; null: the spinner. */
  image: string | null;
  /** The content's text (already in the page's language); null: the translated default. */
  text: string | null;
}

export interface SiteConfig {
  siteName: string;
  /** SPEC §3 site config "logos": image urls; null: the built-in mark and name. */
  logo: string | null;
  /** The logo for phones (up to 767 px); null: `logo`. */
  logoMobile: string | null;
  loader: LoaderConfig;
  switches: SiteSwitches;
  balanceRefresh: BalanceRefreshSettings;
  auth: AuthConfig;
  cashier: CashierConfig;
  validator: ValidatorConfig;
  common: CommonConfig;
  games: GamesConfig;
  /** Popups shown when a named popup cannot be (SPEC §3 site config "popup fallbacks"). */
  popupFallbacks: readonly ContentPopup[];
}

export const DEFAULT_SITE_CONFIG: SiteConfig = {
  siteName: 'Croupier',
  logo: null,
  logoMobile: null,
  loader: { image: null, text: null },
  switches: {
    twoFactor: true,
    identityVerification: true,
    responsibleGaming: true,
    betHistory: true,
    bettingNotice: false,
    clickableTitle: true,
    balanceRefresh: true,
    loyalty: true,
    characters: true,
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
    termsLabel: null,
    socialProviders: [],
    notify: true,
    markBetting: false,
  },
  cashier: {
    balanceDetail: 'header-profile-menu',
    depositView: 'ContainerView',
    registrationHint: true,
    amountList: [],
    currencies: [],
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
      {
        title: null,
        links: [
          { label: 'promotions', to: '/promotions', icon: 'gift' },
          { label: 'offers', to: '/offers', icon: 'gift' },
          { label: 'providers', to: '/providers', icon: 'cards' },
          { label: 'winners', to: '/winners', icon: 'trophy' },
          { label: 'support', to: '/support', icon: 'chat' },
          { label: 'responsibleGaming', to: '/responsible-game', icon: 'shield' },
        ],
      },
    ],
    footerText: null,
    copyright: null,
    confirmHint: true,
  },
  games: {
    visibleFullScreen: 'telegram',
    canAccessSlotWithZeroBalance: false,
    canVisibleFavoriteIcon: true,
    contentViewType: 'grid',
  },
  popupFallbacks: [],
};

export const siteConfigStore = createStore<SiteConfig>(DEFAULT_SITE_CONFIG);

export function useSiteConfig(): SiteConfig {
  return useStore(siteConfigStore);
}

/** A menu entry's text: the content's title, else the translation of its label. */
export function menuItemText(item: MenuItem, t: (key: `menu.${MenuLabel}`) => string): string {
  return item.title ?? (item.label ? t(`menu.${item.label}`) : item.to);
}
