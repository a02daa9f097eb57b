import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '@/app/app';
import '@/lib/i18n';
import { watchPointerPresses } from '@/lib/pointer';
import { initTelegram } from '@/lib/telegram';
import '@/styles/tokens.css';
import '@/styles/global.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

watchPointerPresses();
void initTelegram();
