import type { ContentPopup } from '@/features/content/api/popups';

export interface PopupChoiceContext {
  signedIn: boolean;
  /** `#popup-preview`: an editor previews a campaign popup whoever they are. */
  preview: boolean;
  /** The site config's popup fallbacks, shown when the named popup does not exist. */
  fallbacks: readonly ContentPopup[];
}

/**
 * SPEC §2 `popup={sysname}`: the content popup to show for the name (case-insensitively), when
 * its audience includes the visitor (or in a preview); an unknown name shows the first fallback.
 */
export function choosePopup(sysname: string, popups: readonly ContentPopup[], context: PopupChoiceContext): ContentPopup | null {
  const wanted = sysname.toLowerCase();
  const popup = popups.find((candidate) => candidate.sysname.toLowerCase() === wanted);
  if (!popup) return context.fallbacks[0] ?? null;
  if (context.preview || popup.audience === 'all') return popup;
  return popup.audience === (context.signedIn ? 'player' : 'guest') ? popup : null;
}

export const POPUP_PREVIEW_HASH = '#popup-preview';
