// The release server for the client's `make bench` rows (first-paint JavaScript, Lighthouse):
// started on a fresh SQLite database with the demo content, on a free port of 127.0.0.1.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export function argument(name, fallback) {
  const index = process.argv.indexOf(name);
  return index > 0 && process.argv[index + 1] ? process.argv[index + 1] : fallback;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

export async function startServer(binary, webDir) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'croupier-first-paint-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = { ...process.env };
  for (const key of ['TELEGRAM_BOT_TOKEN', 'REDIS_URL', 'CROUPIER_CONFIG', 'CROUPIER_FORCE_LOGOUT_SECONDS']) delete env[key];
  const child = spawn(path.resolve(binary), [], {
    cwd: dataDir,
    env: {
      ...env,
      CROUPIER_ADDR: `127.0.0.1:${port}`,
      CROUPIER_PUBLIC_URL: baseUrl,
      DATABASE_URL: `sqlite://${path.join(dataDir, 'first-paint.db')}`,
      CROUPIER_ENV: 'dev',
      CROUPIER_WEB_DIR: path.resolve(webDir),
    },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`croupier-server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/readyz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('croupier-server was not ready within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    baseUrl,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

