import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { useStore } from '@/lib/store';
import styles from './layouts/layouts.module.css';

/** How often the client asks whether its build is still the one deployed (and on coming back to the tab). */
export const BUILD_CHECK_MS = 10 * 60_000;

/** The build this page runs: the server writes it in the head (`<meta name="croupier-build">`). */
export function currentBuildId(doc: Document = document): string | null {
  const id = doc.querySelector<HTMLMetaElement>('meta[name="croupier-build"]')?.content.trim() ?? '';
  return id === '' ? null : id;
}

/**
 * Whether a newer build is deployed: `/builds/meta/{id}.json` answers 404 once the server serves
 * another build, which `/builds/latest.json` then names. A network failure or any other answer
 * says nothing (no reload is offered on a hiccup).
 */
export async function newerBuild(current: string, fetcher: typeof fetch = fetch): Promise<string | null> {
  try {
    const meta = await fetcher(`/builds/meta/${encodeURIComponent(current)}.json`, { cache: 'no-store' });
    if (meta.status !== 404) return null;
    const latest = await fetcher('/builds/latest.json', { cache: 'no-store' });
    if (!latest.ok) return null;
    const body = (await latest.json()) as { id?: unknown };
    return typeof body.id === 'string' && body.id !== '' && body.id !== current ? body.id : null;
  } catch {
    return null;
  }
}

/**
 * SPEC §4 build-update check: on a timer (and when the tab comes back), and when a new build is
 * deployed, an offer to reload — never on a game page (a round may be running) and never over a
 * dialog; it waits for both to be over.
 */
export function BuildUpdateOffer({ onGamePage }: { onGamePage: boolean }) {
  const { t } = useTranslation();
  const [newer, setNewer] = useState<string | null>(null);
  const dialogState = useStore(dialogs.store);

  useEffect(() => {
    const current = currentBuildId();
    if (!current || newer) return;
    let active = true;
    const check = () => {
      void newerBuild(current).then((id) => {
        if (active && id) setNewer(id);
      });
    };
    const timer = setInterval(check, BUILD_CHECK_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible') check();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [newer]);

  if (!newer || onGamePage || dialogState.open.length > 0) return null;
  return (
    <div className={styles.updateOffer} role="status" data-testid="build-update" data-build={newer}>
      <span>{t('app.updateAvailable')}</span>
      <Button onClick={() => { window.location.reload(); }}>{t('app.reload')}</Button>
      <Button variant="ghost" onClick={() => { setNewer(null); }}>{t('app.later')}</Button>
    </div>
  );
}
