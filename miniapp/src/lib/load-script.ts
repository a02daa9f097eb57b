// Third-party scripts the site loads on demand (Telegram's Login Widget, the tag manager, the
// fraud agent): each source once per page, whatever the callers; the CSP decides what may run.

const loading = new Map<string, Promise<void>>();

/** Appends `<script async src>` once per source; resolves when it has loaded. */
export function loadScript(src: string): Promise<void> {
  const known = loading.get(src);
  if (known) return known;
  const loaded = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.addEventListener('load', () => { resolve(); });
    script.addEventListener('error', () => {
      loading.delete(src);
      reject(new Error(`${src} did not load`));
    });
    document.head.append(script);
  });
  loading.set(src, loaded);
  return loaded;
}

/** Tests only: forgets what was loaded. */
export function resetScriptsForTests(): void {
  loading.clear();
}
