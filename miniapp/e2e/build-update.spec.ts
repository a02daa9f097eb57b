import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures';
import { freePort, miniappDir, serverBinary, startServer } from './server';

// A new build deployed under a running page: the page was loaded from one build, the server is
// restarted on the same address serving another, and the page's check (every 10 minutes, here
// fast-forwarded) offers a reload that lands on the new build. Its own server, so the journeys'
// server keeps its build.

const CASES = [
  { width: 1280, prefix: '', offer: 'A new version of the site is available.', reload: 'Reload' },
  { width: 360, prefix: '/fr', offer: 'Une nouvelle version du site est disponible.', reload: 'Recharger' },
] as const;

for (const { width, prefix, offer, reload } of CASES) {
  test.describe(`at ${String(width)} px`, () => {
    test.use({ viewport: { width, height: 800 } });
    test(`a deploy under a running page is offered as a reload (${prefix || '/'})`, async ({ page }) => {
      test.setTimeout(90_000);
      const root = await mkdtemp(path.join(tmpdir(), 'croupier-deploy-'));
      const webDir = path.join(root, 'web');
      const dataDir = path.join(root, 'data');
      await cp(path.join(miniappDir, 'dist'), webDir, { recursive: true });
      await mkdir(dataDir, { recursive: true });
      const port = await freePort();
      let server = await startServer(serverBinary(), webDir, `deploy-${String(width)}`, {}, { port, dataDir });
      try {
        await page.clock.install();
        await page.goto(`${server.baseUrl}${prefix}/`);
        // The client loads after the app shell's first paint (issue 23): the page runs once it
        // has replaced the shell.
        await expect(page.locator('[data-layout="default"]')).toBeVisible();
        const first = await page.locator('meta[name="croupier-build"]').getAttribute('content');
        expect(first).toMatch(/^[0-9a-f]{16}$/);
        await page.clock.fastForward('10:05');
        await expect(page.getByTestId('build-update')).toHaveCount(0);

        // The deploy: the same address, another client build.
        await server.stop();
        const index = path.join(webDir, 'index.html');
        await writeFile(index, (await readFile(index, 'utf8')).replace('</head>', '<!-- deploy 2 --></head>'));
        server = await startServer(serverBinary(), webDir, `deploy-${String(width)}-2`, {}, { port, dataDir });

        await page.clock.fastForward('10:05');
        const banner = page.getByTestId('build-update');
        await expect(banner).toContainText(offer);
        const next = await banner.getAttribute('data-build');
        expect(next).not.toBe(first);
        await banner.getByRole('button', { name: reload }).click();
        await expect(page.locator('meta[name="croupier-build"]')).toHaveAttribute('content', next ?? '');
        await expect(page.getByTestId('build-update')).toHaveCount(0);
      } finally {
        await server.stop();
        await rm(root, { recursive: true, force: true });
      }
    });
  });
}
