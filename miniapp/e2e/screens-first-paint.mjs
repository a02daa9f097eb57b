// `make bench` row: the JavaScript a first visit downloads to show `/`, `/gamehall` and
// `/cashier/deposit`, measured in real Chromium against the release server (a fresh browser
// context per page, so nothing is cached). Sizes are gzip level 9 of each script's body, as a
// compressing server or CDN sends them. Fails when `/` needs more than 150 KB gzip (issue #7).
//
//   node miniapp/e2e/screens-first-paint.mjs --server target/benchmark/croupier-server --web-dir miniapp/dist [--files]
//
// `--files` also lists each page's scripts (gzip KB, in the order they arrived): what to look at
// when `/` is over its budget.
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { argument, startServer } from './bench-server.mjs';

const BUDGET_HOME_GZIP = 150 * 1024;
const PAGES = [
  { path: '/', signedIn: false },
  { path: '/gamehall', signedIn: false },
  { path: '/cashier/deposit', signedIn: true },
];

async function measure(browser, baseUrl, { path: pagePath, signedIn }, index) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 360, height: 780 } });
  const page = await context.newPage();
  if (signedIn) {
    const response = await page.request.post('/api/auth.register?locale=en&v=2.34', {
      form: { email: `first-paint-${Date.now()}-${index}@example.com`, password: 'Secret123', currency: 'USD', terms: '1' },
    });
    if ((await response.json()).status !== 'ok') throw new Error('could not register the measuring player');
  }
  const scripts = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (url.origin !== baseUrl || !url.pathname.endsWith('.js')) return;
    scripts.push(response.body().then((body) => ({ name: url.pathname, raw: body.length, gzip: gzipSync(body, { level: 9 }).length })));
  });
  await page.goto(pagePath, { waitUntil: 'networkidle' });
  const landed = new URL(page.url()).pathname;
  if (landed !== pagePath) throw new Error(`${pagePath} ended on ${landed}`);
  const sizes = await Promise.all(scripts);
  await context.close();
  return {
    path: pagePath,
    files: sizes.length,
    sizes,
    raw: sizes.reduce((sum, size) => sum + size.raw, 0),
    gzip: sizes.reduce((sum, size) => sum + size.gzip, 0),
  };
}

const kb = (bytes) => (bytes / 1024).toFixed(1);
const server = await startServer(argument('--server', 'target/release/croupier-server'), argument('--web-dir', 'miniapp/dist'));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
});
let rows;
try {
  rows = [];
  for (const [index, entry] of PAGES.entries()) rows.push(await measure(browser, server.baseUrl, entry, index));
} finally {
  await browser.close();
  await server.stop();
}

console.log();
console.log('First-paint JavaScript (fresh visit, 360 px, scripts until the network is idle; gzip -9)');
console.log();
console.log('| page | scripts | KB raw | KB gzip | budget |');
console.log('|---|---:|---:|---:|---|');
for (const row of rows) {
  const budget = row.path === '/' ? `≤ ${kb(BUDGET_HOME_GZIP)} KB ${row.gzip <= BUDGET_HOME_GZIP ? 'ok' : 'OVER'}` : '—';
  console.log(`| ${row.path} | ${row.files} | ${kb(row.raw)} | ${kb(row.gzip)} | ${budget} |`);
}
if (process.argv.includes('--files')) {
  for (const row of rows) {
    console.log(`\n${row.path}:`);
    for (const size of row.sizes) console.log(`  ${kb(size.gzip).padStart(6)} KB  ${size.name}`);
  }
}
if (rows[0].gzip > BUDGET_HOME_GZIP) process.exitCode = 1;
