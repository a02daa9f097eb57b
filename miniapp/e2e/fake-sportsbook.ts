import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stand-in external sportsbook provider for the journeys (issue 20): its "frame" is a tiny
// page on a local HTTP server (127.0.0.1, a free port) that shows the launch token and currency
// it was given, and `providerCall` plays the provider's side of the wallet protocol — a call to
// POST /provider/sportsbook/{name}/{action} signed exactly as the server checks it.

/** The provider's name in CROUPIER_SPORTSBOOK_PROVIDERS. */
export const FAKE_SPORTSBOOK = 'e2ebook';
/** Its wallet secret (16+ characters), made up for the run. */
export const FAKE_SPORTSBOOK_SECRET = 'e2e-sportsbook-secret-not-a-secret';

export interface FakeSportsbook {
  /** `http://127.0.0.1:{port}`. */
  origin: string;
  /** The CROUPIER_SPORTSBOOK_PROVIDERS entry for the server. */
  config: string;
  stop: () => Promise<void>;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0))};`);
}

export async function startFakeSportsbook(): Promise<FakeSportsbook> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/frame') {
      response.writeHead(404).end();
      return;
    }
    const token = escapeHtml(url.searchParams.get('token') ?? '');
    const currency = escapeHtml(url.searchParams.get('currency') ?? '');
    const locale = escapeHtml(url.searchParams.get('locale') ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>E2E book</title></head>` +
        `<body style="margin:0;font-family:sans-serif;overflow-wrap:anywhere"><h1>E2E book</h1>` +
        `<p>Token <code data-testid="token">${token}</code></p><p>Currency <span data-testid="currency">${currency}</span></p></body></html>`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return {
    origin,
    config: `${FAKE_SPORTSBOOK}|${origin}/frame?token={token}&currency={currency}&locale={locale}|${FAKE_SPORTSBOOK_SECRET}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** hex HMAC-SHA256 of timestamp + "POST" + path + body under the provider's secret, as the server checks it. */
export function providerSignature(secret: string, timestamp: string, path: string, body: string): string {
  return createHmac('sha256', secret).update(timestamp).update('POST').update(path).update(body).digest('hex');
}

export interface ProviderAnswer {
  status: string;
  balance?: number;
  currency?: string;
  request_uuid: string;
  bet_status?: string;
}

/** The provider's signed wallet call `action` with `body` to the server at `baseUrl`. */
export async function providerCall(baseUrl: string, action: string, body: Record<string, unknown>): Promise<ProviderAnswer> {
  const path = `/provider/sportsbook/${FAKE_SPORTSBOOK}/${action}`;
  const text = JSON.stringify(body);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(new URL(path, baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-croupier-timestamp': timestamp,
      'x-croupier-signature': providerSignature(FAKE_SPORTSBOOK_SECRET, timestamp, path, text),
    },
    body: text,
  });
  if (!response.ok) throw new Error(`${action}: HTTP ${String(response.status)}`);
  return (await response.json()) as ProviderAnswer;
}
