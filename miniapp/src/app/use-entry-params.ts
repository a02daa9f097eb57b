import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useContentPopupParam } from '@/features/popups/use-popup-param';
import { trackEvent } from '@/lib/analytics';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { readEntryIntent, SHOW_POPUP_REG, withoutPopupParams } from '@/lib/entry-params';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';
import { openSignIn, readTracking } from '@/features/auth/sign-in-dialogs';

/** Navigation state marking an address whose sign-in popup was already shown and closed. */
interface EntryState {
  entryHandled?: boolean;
}

function isHandled(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as EntryState).entryHandled === true;
}

/** Dialogs a `popup` parameter can name; other sysnames are content popups. */
const NAMED_POPUPS: Readonly<Record<string, () => void>> = {
  authorization: () => openSignIn('authorization'),
  registration: () => openSignIn('registration'),
};

/**
 * SPEC §2 query parameters: opens the sign-in popups, remembers promo_code, backUrl and the
 * tracking parameters, opens `popup` dialogs. `isGuest` is undefined while the account is unknown.
 */
export function useEntryParams(isGuest: boolean | undefined, isGamePage: boolean): void {
  const location = useLocation();
  const navigate = useNavigate();
  const locale = useLocale();
  const { search, hash, pathname } = location;
  const state: unknown = location.state;

  // Remembered values: whatever the visitor is.
  useEffect(() => {
    const params = new URLSearchParams(search);
    const intent = readEntryIntent({ search, hash, isGuest: false, isGamePage, storedShowPopupReg: null });
    if (intent.promoCode) writeStored(STORAGE_KEYS.promoCode, intent.promoCode);
    if (intent.backUrl) writeStored(STORAGE_KEYS.backUrl, intent.backUrl);
    const showPopupReg = params.get(SHOW_POPUP_REG);
    if (showPopupReg !== null) writeStored(STORAGE_KEYS.showPopupReg, showPopupReg);
    if (Object.keys(intent.tracking).length > 0) {
      writeStored(STORAGE_KEYS.tracking, JSON.stringify({ ...readTracking(), ...intent.tracking }));
      trackEvent('tracking', intent.tracking);
    }
  }, [hash, isGamePage, search]);

  // Sign-in popups, for guests.
  useEffect(() => {
    if (isGuest !== true || isHandled(state)) return;
    const intent = readEntryIntent({
      search,
      hash,
      isGuest,
      isGamePage,
      storedShowPopupReg: readStored(STORAGE_KEYS.showPopupReg),
    });
    if (!intent.signInPopup) return;
    openSignIn(intent.signInPopup, {
      preventClose: intent.preventClose,
      onClose: () => {
        writeStored(STORAGE_KEYS.showPopupReg, null);
        if (intent.returnHomeOnClose) {
          void navigate(localizePath('/', locale), { state: { entryHandled: true } satisfies EntryState });
        } else {
          // Popup parameters leave the address; the mark keeps redirectUrl from reopening the popup.
          void navigate(
            { pathname, search: withoutPopupParams(search), hash },
            { replace: true, state: { entryHandled: true } satisfies EntryState },
          );
        }
      },
    });
  }, [hash, isGamePage, isGuest, locale, navigate, pathname, search, state]);

  // popup={sysname}; a new value opens the newly named dialog: the sign-in dialogs by their
  // names, any other name a popup of the content service (#popup-preview: a campaign preview).
  const popup = readEntryIntent({ search, hash, isGuest: false, isGamePage, storedShowPopupReg: null }).namedPopup;
  const named = popup === null ? undefined : NAMED_POPUPS[popup];
  useEffect(() => {
    if (popup === null || !named || dialogs.isOpen(popup)) return;
    named();
  }, [named, popup]);
  useContentPopupParam(named ? null : popup, hash, isGuest);
}
