import { readFileSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { messagePart } from './src/lib/i18n/message-parts.ts';

// `vite dev` talks to a croupier-server running with its defaults.
const devServerTarget = process.env.CROUPIER_DEV_API ?? 'http://127.0.0.1:8080';

/**
 * `vite dev` answers the back office's pages (`/backoffice`, `/backoffice/players/1/show`…) with
 * backoffice.html, as croupier-server does; its API (`/backoffice/api`) goes to the proxy.
 */
function backofficePages(): Plugin {
  return {
    name: 'croupier-backoffice-pages',
    configureServer(server) {
      server.middlewares.use((request, _response, next) => {
        const url = request.url ?? '';
        if (/^\/backoffice(\/(?!api(\/|$))[^.]*)?(\?.*)?$/.test(url)) request.url = '/backoffice.html';
        next();
      });
    },
  };
}

/**
 * `virtual:messages/{locale}/{first|rest}`: a part of `src/locales/{locale}.json`
 * (src/lib/i18n/message-parts.ts), as `JSON.parse` of a string, which browsers parse faster than
 * the same object as JavaScript.
 */
function messageParts(): Plugin {
  const prefix = 'virtual:messages/';
  return {
    name: 'croupier-message-parts',
    resolveId(id) {
      return id.startsWith(prefix) ? `\0${id}` : undefined;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return undefined;
      const [locale, part] = id.slice(prefix.length + 1).split('/');
      if (!locale || !/^[a-z]{2}$/.test(locale) || (part !== 'first' && part !== 'rest')) {
        throw new Error(`unknown message part ${id.slice(1)}`);
      }
      const file = fileURLToPath(new URL(`./src/locales/${locale}.json`, import.meta.url));
      this.addWatchFile(file);
      const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      return `export default JSON.parse(${JSON.stringify(JSON.stringify(messagePart(messages, part)))});`;
    },
  };
}

/**
 * The app shell's styles (the design tokens and the global rules, src/styles/) inlined into
 * index.html's head, in `vite dev` and in the build (issue 23, first paint): they style the
 * shell that index.html paints before any script runs, with no render-blocking request. The
 * rest of the site's CSS is one file (`cssCodeSplit: false`) that the build's index.html only
 * preloads (`rel="preload" as="style"`); src/main.tsx attaches it while the shell is on screen
 * and boots the client once it has loaded. Inlining the whole stylesheet instead (until
 * 2026-11-29) made every page 65 KB of HTML, 60 KB of it CSS the first paint did not use.
 * Comments and runs of white space are removed (the files hold no strings where that matters).
 */
function shellStyles(): Plugin {
  const files = ['./src/styles/tokens.css', './src/styles/global.css'].map((f) => fileURLToPath(new URL(f, import.meta.url)));
  return {
    name: 'croupier-shell-styles',
    // Not modules, so outside Vite's graph: `vite dev` reloads the page when one changes.
    configureServer(server) {
      server.watcher.add(files);
      server.watcher.on('change', (file) => {
        if (files.includes(file)) server.ws.send({ type: 'full-reload' });
      });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        if (!context.filename.endsWith('index.html')) return html;
        const css = files
          .map((file) => readFileSync(file, 'utf8'))
          .join('\n')
          .replace(/\/\*[\s\S]*?\*\//g, '')
          .replace(/\s+/g, ' ')
          .replace(/\s*([{};,])\s*/g, '$1')
          .trim();
        if (css.toLowerCase().includes('</style')) throw new Error('the shell styles cannot close their <style>');
        const preloaded = html.replace(/<link rel="stylesheet"( crossorigin)? href="(\/assets\/[^"]+\.css)">/g, '<link rel="preload" as="style"$1 href="$2">');
        return preloaded.replace('</title>', `</title><style>${css}</style>`);
      },
    },
  };
}

const page = (file: string) => fileURLToPath(new URL(file, import.meta.url));

// Two pages, built in two passes into the same dist/ (`npm run build`): the player site
// (index.html), then with `--mode backoffice` the back office (backoffice.html, issue 22). One
// multi-page pass would share chunks between them, and a shared chunk keeps every export either
// page uses: the player's first paint grew by the parts of react-router and TanStack Query only
// react-admin needs. Two passes keep the player's bundle byte-for-byte what it was.
export default defineConfig(({ mode }) => {
  const backoffice = mode === 'backoffice';
  return {
    plugins: [react(), backofficePages(), messageParts(), shellStyles()],
    resolve: {
      alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
    },
    server: {
      proxy: { '/api': devServerTarget, '/cms': devServerTarget, '/live': devServerTarget, '/backoffice/api': devServerTarget },
    },
    build: {
      outDir: 'dist',
      assetsDir: 'assets',
      // The second pass adds to what the first wrote.
      emptyOutDir: !backoffice,
      // The player site's CSS in one file, preloaded by index.html and attached by the entry
      // (`shellStyles` above); about 11 KB gzip in all.
      ...(backoffice ? {} : { cssCodeSplit: false }),
      // MUI alone is ~520 kB (160 kB gzip): a console for office networks, loaded once and cached.
      ...(backoffice ? { chunkSizeWarningLimit: 600 } : {}),
      rollupOptions: {
        input: backoffice ? [page('./backoffice.html')] : [page('./index.html')],
        // The back office's libraries in chunks of their own, cached across console releases.
        ...(backoffice
          ? {
              output: {
                codeSplitting: {
                  groups: [
                    { name: 'mui', test: /node_modules[\\/](@mui|@emotion)[\\/]/ },
                    { name: 'react-admin', test: /node_modules[\\/](react-admin|ra-[a-z-]+)[\\/]/ },
                    { name: 'vendor', test: /node_modules[\\/]/ },
                  ],
                },
              },
            }
          : {}),
      },
    },
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      // Lazy screens under a loaded CI machine: see asyncUtilTimeout in src/test/setup.ts.
      testTimeout: 20000,
      unstubGlobals: true,
      // react-admin through Vite's resolver, with react-router-dom (a re-export of react-router in
      // v7) as react-router: under Node's resolution the two loaded as two copies, and react-admin's
      // <Routes> refused the console's <Route>s ("[Route] is not a <Route> component"). The build
      // resolves both to one copy already.
      alias: { 'react-router-dom': 'react-router' },
      server: { deps: { inline: [/node_modules[\\/](react-admin|ra-[a-z-]+)[\\/]/] } },
    },
  };
});
