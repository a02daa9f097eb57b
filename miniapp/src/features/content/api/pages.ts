import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Locale } from '@/config/locales';
import { useLocale } from '@/lib/i18n';
import { cmsGet } from './cms';
import { docs, isDoc, mediaUrl, nonEmptyStr, str } from './read';

/** A generic content page (`/{slug}`). */
export interface ContentPage {
  slug: string;
  title: string;
  /** HTML from the content service. */
  content: string;
  cover: string | null;
  metaDescription: string | null;
}

export function toContentPage(value: unknown): ContentPage | null {
  const [doc] = docs(value) ?? [];
  if (!doc) return null;
  const slug = nonEmptyStr(doc.slug);
  const title = nonEmptyStr(doc.title);
  if (slug === undefined || title === undefined) return null;
  const seo = isDoc(doc.seo) ? doc.seo : {};
  return {
    slug,
    title,
    content: str(doc.content) ?? '',
    cover: mediaUrl(doc.cover),
    metaDescription: nonEmptyStr(seo.metaDescription) ?? null,
  };
}

export function contentPageQueryOptions(slug: string, locale: Locale) {
  return queryOptions({
    queryKey: ['content', 'page', locale, slug.toLowerCase()],
    queryFn: async ({ signal }) =>
      toContentPage(await cmsGet('pages', { 'filters[slug][$eqi]': slug, populate: '*' }, { signal, locale })),
  });
}

export function useContentPage(slug: string) {
  return useQuery(contentPageQueryOptions(slug, useLocale()));
}
