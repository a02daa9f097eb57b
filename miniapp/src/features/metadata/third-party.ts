// The operator's third-party scripts (issue 25): Google Tag Manager when `analytic.gtm_id` is set,
// SEON's fraud agent when `is_seon_enabled` is on — their official scripts from exactly the
// origins the server's Content-Security-Policy then allows; nothing loads otherwise.

import { loadScript, resetScriptsForTests } from '@/lib/load-script';

export const GTM_SRC = 'https://www.googletagmanager.com/gtm.js';
export const SEON_SRC = 'https://cdn.deviceinf.com/js/v6/agent.umd.js';

interface SeonAgent {
  init: () => void;
  getSession: () => Promise<string>;
}

let seonSession: string | null = null;
let tagManagerStarted = false;

/** GTM's own loader without its inline snippet: the start event, then the container script. */
export function loadTagManager(gtmId: string): void {
  if (!/^GTM-[A-Z0-9]+$/.test(gtmId) || tagManagerStarted) return;
  tagManagerStarted = true;
  window.dataLayer ??= [];
  window.dataLayer.push({ 'gtm.start': Date.now(), event: 'gtm.js' });
  loadScript(`${GTM_SRC}?id=${gtmId}`).catch(() => undefined);
}

/** SEON's agent: initialised on load; its session is kept for the `/hit` beacon. */
export function loadSeon(): void {
  void loadScript(SEON_SRC).then(() => {
    const seon = (window as unknown as { seon?: SeonAgent }).seon;
    if (!seon) return;
    try {
      seon.init();
      void seon.getSession().then(
        (session) => {
          seonSession = session;
        },
        () => undefined,
      );
    } catch {
      // The agent is an aid to fraud checks: the site works without it.
    }
  }, () => undefined);
}

/** The SEON session once the agent has produced it (the hit beacon reads it when it goes). */
export function currentSeonSession(): string | null {
  return seonSession;
}

/** Tests only. */
export function resetThirdPartyForTests(): void {
  resetScriptsForTests();
  tagManagerStarted = false;
  seonSession = null;
}
