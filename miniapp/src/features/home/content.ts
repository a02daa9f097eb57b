import { queryOptions, useQuery } from '@tanstack/react-query';
import { useLocale } from '@/lib/i18n';

// SPEC §3: content-service data is flattened — attribute wrappers are removed and media fields
// become their url. The service answers Strapi v4 REST shapes (`{data: {id, attributes}}`).

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A populated media: an upload file with a `url` and a `mime`. */
function isMedia(value: Record<string, Json>): boolean {
  return typeof value.url === 'string' && ('mime' in value || 'formats' in value || 'alternativeText' in value);
}

export function flattenContent(value: Json): Json {
  if (Array.isArray(value)) return value.map(flattenContent);
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  // `{data: …}` (a relation or media wrapper, possibly with `meta`) → its content.
  if ('data' in value && keys.every((key) => key === 'data' || key === 'meta')) return flattenContent(value.data ?? null);
  // `{id, attributes}` → the attributes with the id.
  if (isObject(value.attributes) && keys.every((key) => key === 'id' || key === 'attributes' || key === 'documentId')) {
    const flat = flattenContent({ ...value.attributes, id: value.id ?? null });
    return isObject(flat) && isMedia(flat) ? (flat.url ?? null) : flat;
  }
  if (isMedia(value)) return value.url ?? null;
  const out: Record<string, Json> = {};
  for (const [key, inner] of Object.entries(value)) out[key] = flattenContent(inner);
  return out;
}

async function getContent<T>(path: string, locale: string, signal: AbortSignal): Promise<T | null> {
  try {
    const response = await fetch(`/cms/api/${path}?locale=${locale}&populate=*`, { signal, credentials: 'same-origin' });
    if (!response.ok) return null;
    const body = (await response.json()) as Json;
    return flattenContent(body) as T;
  } catch (error) {
    if (signal.aborted) throw error;
    // SPEC §8: banner fetch failures fall back to empty data.
    return null;
  }
}

/** SPEC §3 banner list item, flattened. */
export interface Banner {
  id: number;
  title?: string;
  subtitle?: string;
  buttonTitle?: string;
  buttonUrl?: string;
  position?: string;
  order?: number;
  image?: string | null;
  imageMobile?: string | null;
  finishedAt?: string | null;
}

export interface MenuBanner {
  isExist?: boolean;
  title?: string;
  subtitle?: string;
  buttonTitle?: string;
  buttonSlug?: string;
  image?: string | null;
  publicTitle?: string;
  publicSubtitle?: string;
  publicButtonTitle?: string;
  publicImage?: string | null;
}

export interface AuthBanner {
  isExist?: boolean;
  label?: string;
  value?: string;
  addition?: string;
  image_360_520?: string | null;
  image_735_240?: string | null;
}

/** Live banners of a position, in their order; finished ones are left out. */
export function bannersAt(banners: readonly Banner[], position: string, now = Date.now()): Banner[] {
  return banners
    .filter((banner) => (banner.position ?? 'home-top') === position)
    .filter((banner) => !banner.finishedAt || Date.parse(banner.finishedAt) > now)
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}

export function bannersQueryOptions(locale: string) {
  return queryOptions({
    queryKey: ['content', 'banners', locale],
    queryFn: async ({ signal }) => (await getContent<Banner[]>('banners', locale, signal)) ?? [],
    staleTime: 60_000,
  });
}

export function useBanners() {
  const locale = useLocale();
  return useQuery(bannersQueryOptions(locale));
}

export function menuBannerQueryOptions(locale: string) {
  return queryOptions({
    queryKey: ['content', 'menu-banner', locale],
    queryFn: ({ signal }) => getContent<MenuBanner>('menu-banner', locale, signal),
    staleTime: 60_000,
  });
}

export function useMenuBanner() {
  const locale = useLocale();
  return useQuery(menuBannerQueryOptions(locale));
}

export function authBannerQueryOptions(locale: string) {
  return queryOptions({
    queryKey: ['content', 'auth-banner', locale],
    queryFn: ({ signal }) => getContent<AuthBanner>('auth-banner', locale, signal),
    staleTime: 60_000,
  });
}

export function useAuthBanner() {
  const locale = useLocale();
  return useQuery(authBannerQueryOptions(locale));
}
