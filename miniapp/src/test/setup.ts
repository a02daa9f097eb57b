import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { loadAllMessages } from '@/lib/i18n';

// Tests render any part of the app on its own: every message is there from the start, as after a
// navigation in the browser (the first-paint split of lib/i18n/message-parts.ts has its own test).
await loadAllMessages();

// Screens are lazy routes: on a loaded 2-core CI machine their first import can take over the
// default 1 s of findBy/waitFor, which would fail a correct test.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});
