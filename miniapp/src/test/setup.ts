import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import '@/lib/i18n';

// Screens are lazy routes: on a loaded 2-core CI machine their first import can take over the
// default 1 s of findBy/waitFor, which would fail a correct test.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  cleanup();
});
