import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, createApp, whenRouterReady } from '@/app/app';
import '@/lib/i18n';
import { watchPointerPresses } from '@/lib/pointer';
import { initTelegram } from '@/lib/telegram';
import '@/styles/tokens.css';
import '@/styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// index.html's app shell stays painted until the first page is ready to render in its place.
const app = createApp();
void whenRouterReady(app.router).then(() => {
  createRoot(root).render(
    <StrictMode>
      <App {...app} />
    </StrictMode>,
  );
});

watchPointerPresses();
void initTelegram();
