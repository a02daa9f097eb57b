import type { ContentPopup } from '@/features/content';

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
  return context.preview || admits(popup, context.signedIn) ? popup : null;
}

/** Whether the popup's audience includes a guest (`signedIn` false) or a signed-in player. */
export function admits(popup: ContentPopup, signedIn: boolean): boolean {
  return popup.audience === 'all' || popup.audience === (signedIn ? 'player' : 'guest');
}

export const POPUP_PREVIEW_HASH = '#popup-preview';
