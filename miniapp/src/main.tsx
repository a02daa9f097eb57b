// The entry: index.html's app shell is painted first, then the client boots (issue 23). Loading the
// client from here, once the browser reports its first paint and the shell's lead image is drawn,
// keeps the client's evaluation (React, the router, the first page) from running before the shell
// and its largest paint are on screen; it also waits for the site's stylesheet, which this entry
// attaches at once, so the first render is styled.

/** Resolves after the page's first paint, at once where that cannot be known or will not come soon. */
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    const paints = typeof PerformanceObserver === 'undefined' ? [] : PerformanceObserver.supportedEntryTypes;
    // A tab opened in the background paints only when shown: it boots right away.
    if (document.visibilityState !== 'visible' || !paints.includes('paint')) {
      resolve();
      return;
    }
    const observer = new PerformanceObserver(() => {
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint', buffered: true });
    // A browser that paints without reporting it still boots.
    setTimeout(resolve, 300);
  });
}

/** How long the client waits for the shell's lead image before it starts anyway. */
const LEAD_IMAGE_WAIT_MS = 1500;

/**
 * Resolves once the shell's lead image (the server puts the page's first banner, cover or tile
 * there: the page's largest paint) has loaded and a frame has drawn it, or failed, or after
 * LEAD_IMAGE_WAIT_MS; at once when the shell has none. The client's start-up is a long main-thread
 * task: run before that frame, it would hold the largest paint back behind it.
 */
function afterLeadImage(): Promise<void> {
  const image = document.querySelector<HTMLImageElement>('#root .boot-lead img');
  if (!image || document.visibilityState !== 'visible') return Promise.resolve();
  return new Promise((resolve) => {
    const drawn = () => {
      requestAnimationFrame(() => {
        setTimeout(resolve, 0);
      });
    };
    if (image.complete) drawn();
    else {
      image.addEventListener('load', drawn, { once: true });
      image.addEventListener('error', () => { resolve(); }, { once: true });
    }
    setTimeout(resolve, LEAD_IMAGE_WAIT_MS);
  });
}

/**
 * Attaches the site's stylesheet, which the built index.html only preloads (the shell's own
 * styles are inline: vite.config.ts, `shellStyles`), and resolves once it has loaded or failed;
 * at once where there is none (`vite dev`: the CSS comes with the modules). Attached by a script,
 * it does not hold the first paint back.
 */
function siteStylesheet(): Promise<void> {
  const preloads = document.querySelectorAll<HTMLLinkElement>('link[rel="preload"][as="style"]');
  return Promise.all(
    Array.from(preloads, (preload) => new Promise<void>((resolve) => {
      const sheet = document.createElement('link');
      sheet.rel = 'stylesheet';
      if (preload.crossOrigin !== null) sheet.crossOrigin = preload.crossOrigin;
      sheet.addEventListener('load', () => { resolve(); }, { once: true });
      sheet.addEventListener('error', () => { resolve(); }, { once: true });
      sheet.href = preload.href;
      document.head.append(sheet);
    })),
  ).then(() => undefined);
}

const styled = siteStylesheet();
void afterFirstPaint()
  .then(afterLeadImage)
  .then(() => styled)
  .then(() => import('./boot'));
