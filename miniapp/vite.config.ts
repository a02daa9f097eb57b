import { fileURLToPath, URL } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// `vite dev` talks to a croupier-server running with its defaults.
const devServerTarget = process.env.CROUPIER_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: { '/api': devServerTarget, '/cms': devServerTarget },
  },
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    // Lazy screens under a loaded CI machine: see asyncUtilTimeout in src/test/setup.ts.
    testTimeout: 20000,
    unstubGlobals: true,
  },
});
