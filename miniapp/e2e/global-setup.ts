import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_BONUS_WAGER_CAP, SHORT_FORCE_LOGOUT_SECONDS } from './support';

const miniappDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = path.resolve(miniappDir, '..');

/** The main server's operator token; journeys that act as an operator read CROUPIER_E2E_ADMIN_TOKEN. */
const E2E_ADMIN_TOKEN = 'e2e-operator-token-not-a-secret';

/** A made-up bot token for the main server; the Telegram journey reads it from CROUPIER_E2E_BOT_TOKEN. */
const E2E_BOT_TOKEN = '7000000001:E2E-test-token-not-a-real-bot';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 64 * 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function isReady(baseUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const killer = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
    server.once('exit', () => {
      clearTimeout(killer);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

interface RunningServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

/** Starts croupier-server with a fresh database and `env` on top of the defaults; resolves once it is ready. */
async function startServer(binary: string, webDir: string, name: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'croupier-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;

  // A bot token, a Redis or a config file from the developer's shell must not leak into the run.
  const leaking = new Set(['TELEGRAM_BOT_TOKEN', 'REDIS_URL', 'CROUPIER_CONFIG', 'CROUPIER_FORCE_LOGOUT_SECONDS']);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !leaking.has(key)));
  const server = spawn(binary, [], {
    cwd: dataDir,
    env: {
      ...inherited,
      CROUPIER_ADDR: `127.0.0.1:${port}`,
      CROUPIER_PUBLIC_URL: baseUrl,
      DATABASE_URL: `sqlite://${path.join(dataDir, 'e2e.db')}`,
      CROUPIER_ENV: 'dev',
      CROUPIER_WEB_DIR: webDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  let log = '';
  const record = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-LOG_LIMIT);
  };
  server.stdout.on('data', record);
  server.stderr.on('data', record);
  let spawnError: Error | undefined;
  server.once('error', (error) => {
    spawnError = error;
  });

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (spawnError || server.exitCode !== null || server.signalCode !== null) {
      await rm(dataDir, { recursive: true, force: true });
      const reason = spawnError?.message ?? `exited with ${String(server.exitCode ?? server.signalCode)}`;
      throw new Error(`croupier-server (${name}) ${reason} before it was ready. Its output:\n${log}`);
    }
    if (await isReady(baseUrl)) break;
    if (Date.now() > deadline) {
      await stop(server);
      await rm(dataDir, { recursive: true, force: true });
      throw new Error(
        `croupier-server (${name}) did not answer 200 on /readyz within ${READY_TIMEOUT_MS / 1000} s. Its output:\n${log}`,
      );
    }
    await sleep(250);
  }

  return {
    baseUrl,
    stop: async () => {
      await stop(server);
      const resultsDir = path.join(miniappDir, 'test-results');
      await mkdir(resultsDir, { recursive: true });
      await writeFile(path.join(resultsDir, `server-${name}.log`), log);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const binary = process.env.CROUPIER_SERVER_BIN ?? path.join(repoDir, 'target/release/croupier-server');
  const webDir = path.join(miniappDir, 'dist');
  if (!existsSync(binary)) {
    throw new Error(`No server binary at ${binary}: build it (cargo build --release -p croupier-server) or set CROUPIER_SERVER_BIN.`);
  }
  if (!existsSync(path.join(webDir, 'index.html'))) {
    throw new Error(`No built client in ${webDir}: run \`npm run build -w miniapp\` first.`);
  }

  // Two servers: the journeys' own, and one whose sessions end after a few idle seconds for the
  // inactivity journey (its own Playwright project).
  // The Telegram journey signs its init data with this bot token (auth.telegram checks it);
  // TELEGRAM_API_URL points any Bot API call at a closed local port, never at Telegram.
  // The bonus journey wagers a bonus to the end in a few rounds: its wagering multiplier is
  // capped at 1 (CROUPIER_BONUS_WAGER_CAP, the regulatory cap setting).
  const main = await startServer(binary, webDir, 'main', {
    TELEGRAM_BOT_TOKEN: E2E_BOT_TOKEN,
    TELEGRAM_BOT_USERNAME: 'croupier_e2e_bot',
    TELEGRAM_API_URL: 'http://127.0.0.1:9',
    CROUPIER_BONUS_WAGER_CAP: String(E2E_BONUS_WAGER_CAP),
    CROUPIER_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
  });
  let short: RunningServer;
  try {
    short = await startServer(binary, webDir, 'short-session', {
      CROUPIER_FORCE_LOGOUT_SECONDS: String(SHORT_FORCE_LOGOUT_SECONDS),
    });
  } catch (error) {
    await main.stop();
    throw error;
  }

  process.env.CROUPIER_E2E_BASE_URL = main.baseUrl;
  process.env.CROUPIER_E2E_BOT_TOKEN = E2E_BOT_TOKEN;
  process.env.CROUPIER_E2E_ADMIN_TOKEN = E2E_ADMIN_TOKEN;
  process.env.CROUPIER_E2E_SHORT_SESSION_URL = short.baseUrl;

  return async () => {
    await Promise.all([main.stop(), short.stop()]);
  };
}
