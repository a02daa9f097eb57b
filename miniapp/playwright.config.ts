import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser build.
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  // Starts the real croupier-server with a fresh database and sets CROUPIER_E2E_BASE_URL.
  globalSetup: './e2e/global-setup.ts',
  // One server and two cores: journeys run one after another.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [['list']],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath, args: chromiumArgs },
    // Mobile-first: the smallest phone width the site must serve.
    viewport: { width: 360, height: 780 },
    screenshot: 'only-on-failure',
  },
  // The base URLs are set by the global setup; workers start after it and inherit them.
  projects: [
    {
      name: 'journeys',
      testIgnore: /inactivity\.spec\.ts/,
      use: { baseURL: process.env.CROUPIER_E2E_BASE_URL },
    },
    {
      // A server whose sessions end after a few idle seconds (CROUPIER_FORCE_LOGOUT_SECONDS).
      name: 'inactivity',
      testMatch: /inactivity\.spec\.ts/,
      use: { baseURL: process.env.CROUPIER_E2E_SHORT_SESSION_URL },
    },
  ],
});
