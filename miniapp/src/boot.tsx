// The client: started by main.tsx once index.html's app shell is painted.
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp, whenRouterReady } from '@/app/app';
import '@/lib/i18n';
import { watchPointerPresses } from '@/lib/pointer';
import { initTelegram } from '@/lib/telegram';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// index.html's app shell stays painted until the first page is ready to render in its place.
const app = createApp();
// The first render as a transition: React yields to the browser every few milliseconds instead of
// holding the main thread for the whole page (Lighthouse's total blocking time).
void whenRouterReady(app.router).then(() => {
  const reactRoot = createRoot(root);
  startTransition(() => {
    reactRoot.render(
      <StrictMode>
        <App {...app} />
      </StrictMode>,
    );
  });
});

watchPointerPresses();
void initTelegram();
