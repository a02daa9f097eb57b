// Starting and stopping croupier-server for the browser tests: the global setup's servers, and
// journeys that need a server of their own (a deploy under a running page).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const miniappDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoDir = path.resolve(miniappDir, '..');

/** The server binary the browser tests run. */
export function serverBinary(): string {
  return process.env.CROUPIER_SERVER_BIN ?? path.join(repoDir, 'target/release/croupier-server');
}

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const LOG_LIMIT = 64 * 1024;

export function freePort(): Promise<number> {
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

export interface RunningServer {
  baseUrl: string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Listen on this port (a restarted server keeps its address); default: a free one. */
  port?: number;
  /** Use (and keep) this data directory, so a restart finds its database; default: a fresh one, removed at stop. */
  dataDir?: string;
}

/** Starts croupier-server with a fresh database and `env` on top of the defaults; resolves once it is ready. */
export async function startServer(
  binary: string,
  webDir: string,
  name: string,
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const ownData = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'croupier-e2e-')));
  const port = options.port ?? (await freePort());
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
      if (ownData) await rm(dataDir, { recursive: true, force: true });
      const reason = spawnError?.message ?? `exited with ${String(server.exitCode ?? server.signalCode)}`;
      throw new Error(`croupier-server (${name}) ${reason} before it was ready. Its output:\n${log}`);
    }
    if (await isReady(baseUrl)) break;
    if (Date.now() > deadline) {
      await stop(server);
      if (ownData) await rm(dataDir, { recursive: true, force: true });
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
      if (ownData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

