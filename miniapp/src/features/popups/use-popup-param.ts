import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { popupsQueryOptions } from '@/features/content';
import { siteConfigFromContent, siteContentQueryOptions } from '@/features/content';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { useLocale } from '@/lib/i18n';
import { choosePopup, POPUP_PREVIEW_HASH } from './choose-popup';
import { openContentPopup } from './content-popup';

/**
 * SPEC §2 `popup={sysname}` for content-defined popups (with `#popup-preview`, the campaign
 * preview); a new value opens the newly named popup. `isGuest` is undefined while the account is
 * unknown: nothing opens until it is known, so the audience check sees the right visitor.
 */
export function useContentPopupParam(sysname: string | null, hash: string, isGuest: boolean | undefined): void {
  const queryClient = useQueryClient();
  const locale = useLocale();
  const preview = hash === POPUP_PREVIEW_HASH;
  useEffect(() => {
    if (sysname === null || isGuest === undefined) return;
    let cancelled = false;
    // The fallbacks come with the site config, which may still be on its way.
    Promise.all([queryClient.query(popupsQueryOptions(locale)), queryClient.query(siteContentQueryOptions(locale))])
      .then(([popups, content]) => {
        if (cancelled) return;
        const popup = choosePopup(sysname, popups, {
          signedIn: !isGuest,
          preview,
          fallbacks: siteConfigFromContent(content).popupFallbacks,
        });
        if (popup && !dialogs.isOpen(`popup:${popup.sysname}`)) openContentPopup(popup, { preview });
      })
      .catch((error: unknown) => {
        console.warn('content popups not loaded', error);
      });
    return () => {
      cancelled = true;
    };
  }, [isGuest, locale, preview, queryClient, sysname]);
}
