import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Locale } from '@/config/locales';
import type { ContentPopup } from '@/config/site-config';
import type { DialogKind, DialogSize } from '@/lib/dialogs/dialog-stack';
import { useLocale } from '@/lib/i18n';
import { cmsGet, DEEP } from './cms';
import { bool, docs, isDoc, mediaUrl, nonEmptyStr, num, oneOf, str, type Doc } from './read';

/** A popup defined in the content service: the shape lives with the site's configuration, whose
 * fallback popups use it too. */
export type { ContentPopup };

const KINDS: readonly DialogKind[] = ['popup', 'confirm', 'curtain'];
const SIZES: readonly DialogSize[] = ['full', 'big', 'custom'];

export function toContentPopup(value: unknown): ContentPopup | null {
  if (!isDoc(value)) return null;
  const doc: Doc = value;
  const sysname = nonEmptyStr(doc.sysname);
  const title = nonEmptyStr(doc.title);
  if (sysname === undefined || title === undefined) return null;
  return {
    id: num(doc.id) ?? 0,
    sysname,
    title,
    text: str(doc.text) ?? '',
    kind: oneOf(doc.kind, KINDS) ?? 'popup',
    size: oneOf(doc.size, SIZES) ?? 'custom',
    buttonTitle: nonEmptyStr(doc.buttonTitle) ?? null,
    buttonUrl: nonEmptyStr(doc.buttonUrl) ?? null,
    image: mediaUrl(doc.image),
    audience: oneOf(doc.audience, ['guest', 'player', 'all'] as const) ?? 'all',
    // Lenient: anything but a true boolean (or the text "true") leaves the popup to links only.
    showAfterLogin: bool(doc.showAfterLogin) ?? doc.showAfterLogin === 'true',
  };
}

export function toContentPopups(value: unknown): ContentPopup[] {
  return (docs(value) ?? []).map(toContentPopup).filter((popup) => popup !== null);
}

/** Every content popup of the locale (the current one unless given). */
export async function fetchContentPopups({ signal, locale }: { signal?: AbortSignal; locale?: Locale } = {}) {
  return toContentPopups(
    await cmsGet('popups', { ...DEEP, 'pagination[pageSize]': 100 }, { ...(signal ? { signal } : {}), ...(locale ? { locale } : {}) }),
  );
}

export function popupsQueryOptions(locale: Locale) {
  return queryOptions({
    queryKey: ['content', 'popups', locale],
    queryFn: ({ signal }) => fetchContentPopups({ signal, locale }),
    staleTime: 5 * 60_000,
  });
}

export function useContentPopups() {
  return useQuery(popupsQueryOptions(useLocale()));
}
