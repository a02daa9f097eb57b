import { test as base, expect } from '@playwright/test';

// Chromium reports HTTP error statuses of loaded resources as console errors; the journeys
// check statuses themselves, so only script errors count here.
const RESOURCE_STATUS = 'Failed to load resource';

/** `test` that also fails when the page throws or logs an error. */
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith(RESOURCE_STATUS)) errors.push(message.text());
      });
      await use(errors);
      expect(errors, 'errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
