import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Locale } from '@/config/locales';
import {
  DEFAULT_SITE_CONFIG,
  MENU_ICONS,
  MENU_LABELS,
  siteConfigStore,
  type AuthType,
  type FooterColumn,
  type MenuItem,
  type SiteConfig,
} from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { cmsGet, DEEP } from './api/cms';
import { toContentPopups } from './api/popups';
import { bool, docs, isDoc, mediaUrl, nonEmptyStr, num, oneOf, str, type Doc } from './api/read';

/** The content-service answers the site configuration is made of (each null when absent). */
export interface SiteContent {
  site: unknown;
  common: unknown;
  auth: unknown;
  cashier: unknown;
  games: unknown;
}

const doc = (value: unknown): Doc => (isDoc(value) ? value : {});

/** Each boolean key of `defaults` taken from `source` when it is a boolean there. */
function booleans<T extends object>(defaults: T, source: unknown): T {
  const values = doc(source);
  const out: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const key of Object.keys(defaults)) {
    const value = bool(values[key]);
    if (value !== undefined && typeof out[key] === 'boolean') out[key] = value;
  }
  return out as unknown as T;
}

function menuItem(value: Doc): MenuItem | null {
  const to = nonEmptyStr(value.to) ?? nonEmptyStr(value.url);
  const title = nonEmptyStr(value.title) ?? null;
  const label = oneOf(value.label, MENU_LABELS) ?? null;
  if (to === undefined || (title === null && label === null)) return null;
  return { label, title, to, icon: oneOf(value.icon, MENU_ICONS) ?? 'star' };
}

function menu(value: unknown, fallback: readonly MenuItem[]): readonly MenuItem[] {
  const items = docs(value)?.map(menuItem).filter((item) => item !== null);
  return items && items.length > 0 ? items : fallback;
}

function footerColumns(value: unknown, fallback: readonly FooterColumn[]): readonly FooterColumn[] {
  const columns = docs(doc(value).columns)
    ?.map((column) => ({
      title: nonEmptyStr(column.title) ?? null,
      links: (docs(column.links) ?? []).map(menuItem).filter((item) => item !== null),
    }))
    .filter((column) => column.links.length > 0);
  return columns && columns.length > 0 ? columns : fallback;
}

/**
 * SPEC §3: the site configuration from the content service, each value falling back to its
 * default when the content lacks it or has it in the wrong shape.
 */
export function siteConfigFromContent(content: SiteContent, defaults: SiteConfig = DEFAULT_SITE_CONFIG): SiteConfig {
  const site = doc(content.site);
  const common = doc(content.common);
  const auth = doc(content.auth);
  const cashier = doc(content.cashier);
  const game = doc(doc(content.games).game);
  const refresh = doc(site.balanceRefresh);
  const validator = doc(site.validator);
  const registration = doc(auth.registration);
  const terms = doc(auth.terms);
  const footer = doc(common.footer);
  const loader = doc(site.loader);

  const balanceRefresh = { ...defaults.balanceRefresh };
  for (const key of Object.keys(balanceRefresh) as (keyof typeof balanceRefresh)[]) {
    const value = refresh[key];
    if (typeof defaults.balanceRefresh[key] === 'number' && num(value) !== undefined && (value as number) >= 0) {
      (balanceRefresh as Record<string, unknown>)[key] = value;
    } else if (typeof defaults.balanceRefresh[key] === 'boolean' && bool(value) !== undefined) {
      (balanceRefresh as Record<string, unknown>)[key] = value;
    }
  }

  const phoneMasks = docs(validator.phoneMasks)?.flatMap((entry) => {
    const code = nonEmptyStr(entry.code);
    const mask = nonEmptyStr(entry.mask);
    return code !== undefined && mask !== undefined ? [[code, mask] as const] : [];
  });
  const authTypes = Array.isArray(auth.authTypes)
    ? auth.authTypes.filter((type): type is AuthType => type === 'email' || type === 'phone')
    : [];
  const socialProviders = (docs(auth.socialProviders) ?? []).flatMap((provider) => {
    const name = nonEmptyStr(provider.name);
    return name === undefined ? [] : [{ name, title: nonEmptyStr(provider.title) ?? name, icon: mediaUrl(provider.icon) }];
  });
  const confirmHint = common.confirmHint;
  const registrationHint = cashier.registrationHint;

  return {
    siteName: nonEmptyStr(site.siteName) ?? defaults.siteName,
    logo: mediaUrl(site.logo) ?? defaults.logo,
    logoMobile: mediaUrl(site.logoMobile) ?? defaults.logoMobile,
    loader: {
      image: mediaUrl(loader.image) ?? defaults.loader.image,
      text: nonEmptyStr(loader.text) ?? defaults.loader.text,
    },
    switches: booleans(defaults.switches, site.switches),
    balanceRefresh,
    auth: {
      registration: booleans(defaults.auth.registration, registration),
      authTypes: authTypes.length > 0 ? authTypes : defaults.auth.authTypes,
      termsUrl: nonEmptyStr(terms.url) ?? defaults.auth.termsUrl,
      termsLabel: nonEmptyStr(terms.label) ?? defaults.auth.termsLabel,
      socialProviders: docs(auth.socialProviders) ? socialProviders : defaults.auth.socialProviders,
      notify: bool(auth.notify) ?? defaults.auth.notify,
      markBetting: bool(auth.markBetting) ?? defaults.auth.markBetting,
    },
    cashier: {
      balanceDetail: oneOf(cashier.balanceDetail, ['header-cashier', 'header-profile-menu'] as const) ?? defaults.cashier.balanceDetail,
      depositView: oneOf(cashier.depositView, ['ContainerView', 'ContainerScrollView'] as const) ?? defaults.cashier.depositView,
      registrationHint:
        bool(registrationHint) ?? bool(doc(registrationHint).enabled) ?? defaults.cashier.registrationHint,
      amountList:
        docs(cashier.amountList)?.flatMap((entry) => {
          const currency = nonEmptyStr(entry.currency);
          const amounts = Array.isArray(entry.amounts) ? entry.amounts.filter((a): a is number => num(a) !== undefined) : [];
          return currency === undefined ? [] : [{ currency, amounts }];
        }) ?? defaults.cashier.amountList,
      currencies:
        docs(cashier.currencies)?.flatMap((entry) => {
          const code = nonEmptyStr(entry.code);
          return code === undefined ? [] : [{ code, symbol: str(entry.symbol) ?? code }];
        }) ?? defaults.cashier.currencies,
    },
    validator: {
      postcodePattern:
        validator.postcodePattern === null ? null : (nonEmptyStr(validator.postcodePattern) ?? defaults.validator.postcodePattern),
      phoneMasks: phoneMasks && phoneMasks.length > 0 ? Object.fromEntries(phoneMasks) : defaults.validator.phoneMasks,
    },
    common: {
      menu: menu(common.menu, defaults.common.menu),
      mobileBottomMenu: menu(common.mobileBottomMenu, defaults.common.mobileBottomMenu),
      footer: footerColumns(footer, defaults.common.footer),
      footerText: nonEmptyStr(footer.text) ?? defaults.common.footerText,
      copyright: nonEmptyStr(footer.copyright) ?? defaults.common.copyright,
      confirmHint: bool(confirmHint) ?? bool(doc(confirmHint).enabled) ?? defaults.common.confirmHint,
    },
    games: {
      visibleFullScreen: oneOf(game.visibleFullScreen, ['all', 'telegram', 'product', 'none'] as const) ?? defaults.games.visibleFullScreen,
      canAccessSlotWithZeroBalance: bool(game.canAccessSlotWithZeroBalance) ?? defaults.games.canAccessSlotWithZeroBalance,
      canVisibleFavoriteIcon: bool(game.canVisibleFavoriteIcon) ?? defaults.games.canVisibleFavoriteIcon,
      contentViewType: nonEmptyStr(game.contentViewType) ?? defaults.games.contentViewType,
    },
    popupFallbacks: docs(site.popupFallbacks) ? toContentPopups(site.popupFallbacks) : defaults.popupFallbacks,
  };
}

/** SPEC §8: a load failure is logged and swallowed; that part of the configuration stays default. */
async function read(path: string, signal: AbortSignal, locale: Locale): Promise<unknown> {
  try {
    return await cmsGet(path, DEEP, { signal, locale });
  } catch (error) {
    if (!signal.aborted) console.warn(`content ${path} not loaded; defaults stay`, error);
    return null;
  }
}

export function siteContentQueryOptions(locale: Locale) {
  return {
    queryKey: ['content', 'site-config', locale] as const,
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<SiteContent> => {
      const [site, common, auth, cashier, games] = await Promise.all(
        ['prazer-config', 'common', 'auth-config', 'cashier-config', 'games-config'].map((path) => read(path, signal, locale)),
      );
      return { site, common, auth, cashier, games };
    },
    staleTime: 5 * 60_000,
  };
}

/** Keeps the site configuration store on the content of the page's language. */
export function useSiteConfigFromContent(): void {
  const { data } = useQuery(siteContentQueryOptions(useLocale()));
  useEffect(() => {
    if (data) siteConfigStore.set(siteConfigFromContent(data));
  }, [data]);
}
