// The entry: index.html's app shell is painted first, then the client boots (issue 23). Loading the
// client from here, after a frame, keeps its evaluation (React, the router, the first page) from
// running before the browser's first paint of the shell.
function afterFirstPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      setTimeout(resolve, 0);
    });
  });
}

void afterFirstPaint().then(() => import('./boot'));
