// The only module that talks to the Telegram SDK, so swapping the SDK (it continues as
// @tma.js/sdk-react) touches this file alone. The SDK is imported on demand: web visitors never load it.

// Telegram opens a mini app with these launch parameters in the address; the SDK keeps a copy
// in session storage so that reloads and in-app navigation still know they run inside Telegram.
const LAUNCH_PARAM = 'tgWebAppPlatform';
const STORED_LAUNCH_PARAMS = 'tapps/launchParams';

/** Cheap check, without loading the SDK: was the page opened as a Telegram mini app? */
export function isTelegram(): boolean {
  try {
    return (
      window.location.href.includes(LAUNCH_PARAM) ||
      window.sessionStorage.getItem(STORED_LAUNCH_PARAMS) !== null
    );
  } catch {
    // Storage can be blocked (privacy settings, sandboxed frames); then only the address counts.
    return window.location.href.includes(LAUNCH_PARAM);
  }
}

/**
 * Starts the SDK and tells Telegram the app is ready to be shown. Resolves to whether the app
 * runs inside Telegram; never rejects, so the web site is unaffected by anything that goes wrong.
 */
export async function initTelegram(): Promise<boolean> {
  if (!isTelegram()) return false;
  try {
    const sdk = await import('@telegram-apps/sdk-react');
    if (!sdk.isTMA()) return false;
    sdk.init();
    if (sdk.miniApp.mountSync.isAvailable()) sdk.miniApp.mountSync();
    if (sdk.miniApp.ready.isAvailable()) sdk.miniApp.ready();
    return true;
  } catch (error) {
    console.error('Telegram initialisation failed', error);
    return false;
  }
}
