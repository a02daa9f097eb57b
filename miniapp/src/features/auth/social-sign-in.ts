/** SPEC §9: the social sign-in popup is 640×480. */
export const SOCIAL_POPUP_WIDTH = 640;
export const SOCIAL_POPUP_HEIGHT = 480;
const MESSAGE_TYPE = 'croupier:oauth';

export type SocialTypeAuth = 'authorization' | 'registration';

export type SocialResult =
  | { status: 'ok'; isRegistrationCompleted: boolean; redirectUrl: string }
  | { status: 'error'; error: string }
  | { status: 'closed' };

/** SPEC §7: `/oauth/init` with service, redirect_url and type_auth (and the page's locale). */
export function socialSignInUrl(service: string, typeAuth: SocialTypeAuth, redirectUrl: string, locale: string): string {
  const search = new URLSearchParams({ service, redirect_url: redirectUrl, type_auth: typeAuth, locale });
  return `/oauth/init?${search.toString()}`;
}

/** Window features of a centred 640×480 popup. */
export function popupFeatures(screenLeft: number, screenTop: number, outerWidth: number, outerHeight: number): string {
  const left = Math.max(0, Math.round(screenLeft + (outerWidth - SOCIAL_POPUP_WIDTH) / 2));
  const top = Math.max(0, Math.round(screenTop + (outerHeight - SOCIAL_POPUP_HEIGHT) / 2));
  return `popup=yes,width=${SOCIAL_POPUP_WIDTH},height=${SOCIAL_POPUP_HEIGHT},left=${left},top=${top}`;
}

/** Reads the callback page's message (same origin only). */
export function readSocialMessage(event: MessageEvent, origin: string): SocialResult | null {
  if (event.origin !== origin) return null;
  const data: unknown = event.data;
  if (typeof data !== 'object' || data === null || (data as { type?: unknown }).type !== MESSAGE_TYPE) return null;
  const message = data as Record<string, unknown>;
  if (message.status === 'ok') {
    return {
      status: 'ok',
      isRegistrationCompleted: message.is_registration_completed === true,
      redirectUrl: typeof message.redirect_url === 'string' ? message.redirect_url : '/',
    };
  }
  return { status: 'error', error: typeof message.error === 'string' ? message.error : 'unknown' };
}

/**
 * Opens the provider's sign-in in a popup and resolves with what the callback page reports, or
 * `closed` when the player closes the popup. A blocked popup falls back to a full-page visit
 * (the callback then returns to `redirectUrl`).
 */
export function openSocialSignIn(service: string, typeAuth: SocialTypeAuth, redirectUrl: string, locale: string): Promise<SocialResult> {
  const url = socialSignInUrl(service, typeAuth, redirectUrl, locale);
  const popup = window.open(url, 'croupier-social-sign-in', popupFeatures(window.screenX, window.screenY, window.outerWidth, window.outerHeight));
  if (!popup) {
    window.location.assign(url);
    return new Promise<never>(() => undefined);
  }
  return new Promise((resolve) => {
    const finish = (result: SocialResult) => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(watcher);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      const result = readSocialMessage(event, window.location.origin);
      if (result) finish(result);
    };
    window.addEventListener('message', onMessage);
    const watcher = window.setInterval(() => {
      // The message comes before the popup closes itself; a popup closed without one was abandoned.
      if (popup.closed) {
        window.setTimeout(() => {
          finish({ status: 'closed' });
        }, 300);
      }
    }, 500);
  });
}
