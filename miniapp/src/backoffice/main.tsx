// Entry of the back office (backoffice.html). Nothing of the player app is imported here, and
// the player app imports nothing from here: the two entries share only library chunks.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BackofficeApp } from './app';

const root = document.getElementById('root');
if (!root) throw new Error('backoffice.html has no #root');
createRoot(root).render(
  <StrictMode>
    <BackofficeApp />
  </StrictMode>,
);
