import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Locale } from '@/config/locales';
import { useLocale } from '@/lib/i18n';
import { sanitizeHtml } from '../sanitize';
import { cmsGet, DEEP } from './cms';
import { isDoc, mediaUrl, nonEmptyStr, num } from './read';

/**
 * The loyalty programme's presentation from the content service's `loyalty` single type (the
 * rules that move points live on the server): title, description, rules (sanitized HTML), the
 * points' alias, the notices' timing (SPEC §9 defaults: 300 ms, 5 s, volume 0.5), the shop banner.
 */
export interface LoyaltyContent {
  title: string | null;
  description: string | null;
  rulesHtml: string | null;
  pointsAlias: string | null;
  notification: { delayMs: number; durationMs: number; volume: number };
  shopBanner: string | null;
}

export const LOYALTY_NOTICE_DEFAULTS = { delayMs: 300, durationMs: 5000, volume: 0.5 } as const;

export function toLoyaltyContent(value: unknown): LoyaltyContent {
  const doc = isDoc(value) ? value : {};
  const notification = isDoc(doc.notification) ? doc.notification : {};
  const rules = nonEmptyStr(doc.rules);
  const volume = num(notification.volume);
  return {
    title: nonEmptyStr(doc.title) ?? null,
    description: nonEmptyStr(doc.description) ?? null,
    rulesHtml: rules === undefined ? null : sanitizeHtml(rules),
    pointsAlias: nonEmptyStr(doc.pointsAlias) ?? null,
    notification: {
      delayMs: Math.max(0, num(notification.delayMs) ?? LOYALTY_NOTICE_DEFAULTS.delayMs),
      durationMs: Math.max(500, num(notification.durationMs) ?? LOYALTY_NOTICE_DEFAULTS.durationMs),
      volume: volume === undefined ? LOYALTY_NOTICE_DEFAULTS.volume : Math.min(1, Math.max(0, volume)),
    },
    shopBanner: mediaUrl(doc.shopBanner),
  };
}

export function loyaltyContentQueryOptions(locale: Locale) {
  return queryOptions({
    queryKey: ['content', 'loyalty', locale],
    queryFn: async ({ signal }) => toLoyaltyContent(await cmsGet('loyalty', DEEP, { signal, locale })),
    staleTime: 5 * 60_000,
  });
}

export function useLoyaltyContent() {
  return useQuery(loyaltyContentQueryOptions(useLocale()));
}
