// The entry: index.html's app shell is painted first, then the client boots (issue 23). Loading the
// client from here, once the browser reports its first paint, keeps the client's evaluation (React,
// the router, the first page) from running before the shell is on screen.

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

void afterFirstPaint().then(() => import('./boot'));
