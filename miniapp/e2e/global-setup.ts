import { existsSync } from 'node:fs';
import path from 'node:path';
import { startFakeSportsbook } from './fake-sportsbook';
import { miniappDir, serverBinary, startServer, type RunningServer } from './server';
import { E2E_BONUS_WAGER_CAP, SHORT_FORCE_LOGOUT_SECONDS } from './support';

/** The main server's operator token; journeys that act as an operator read CROUPIER_E2E_ADMIN_TOKEN. */
const E2E_ADMIN_TOKEN = 'e2e-operator-token-not-a-secret';

/** A made-up bot token for the main server; the Telegram journey reads it from CROUPIER_E2E_BOT_TOKEN. */
const E2E_BOT_TOKEN = '7000000001:E2E-test-token-not-a-real-bot';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const binary = serverBinary();
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
  // The external sportsbook provider journey frames a tiny local page (./fake-sportsbook).
  const sportsbook = await startFakeSportsbook();
  let main: RunningServer;
  try {
    main = await startServer(binary, webDir, 'main', {
      TELEGRAM_BOT_TOKEN: E2E_BOT_TOKEN,
      TELEGRAM_BOT_USERNAME: 'croupier_e2e_bot',
      TELEGRAM_API_URL: 'http://127.0.0.1:9',
      CROUPIER_BONUS_WAGER_CAP: String(E2E_BONUS_WAGER_CAP),
      CROUPIER_ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      // Every journey registers its players from 127.0.0.1.
      CROUPIER_REGISTRATIONS_PER_IP_HOUR: '1000',
      CROUPIER_SPORTSBOOK_PROVIDERS: sportsbook.config,
    });
  } catch (error) {
    await sportsbook.stop();
    throw error;
  }
  let short: RunningServer;
  try {
    short = await startServer(binary, webDir, 'short-session', {
      CROUPIER_FORCE_LOGOUT_SECONDS: String(SHORT_FORCE_LOGOUT_SECONDS),
    });
  } catch (error) {
    await Promise.all([main.stop(), sportsbook.stop()]);
    throw error;
  }

  process.env.CROUPIER_E2E_BASE_URL = main.baseUrl;
  process.env.CROUPIER_E2E_BOT_TOKEN = E2E_BOT_TOKEN;
  process.env.CROUPIER_E2E_ADMIN_TOKEN = E2E_ADMIN_TOKEN;
  process.env.CROUPIER_E2E_SHORT_SESSION_URL = short.baseUrl;

  return async () => {
    await Promise.all([main.stop(), short.stop(), sportsbook.stop()]);
  };
}
