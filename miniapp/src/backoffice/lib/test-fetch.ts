// Unit tests' stand-in for the network: answers a queue of responses and records each call.
import { vi } from 'vitest';

export interface Call {
  url: URL;
  method: string;
  headers: Headers;
  body: unknown;
}

export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function errorResponse(status: number, type: string, message: string, errorData: Record<string, string[]> = {}): Response {
  return jsonResponse({ status: 'error', error: { type, message, error_data: errorData } }, status);
}

/** Stubs `fetch` with `responses`, answered in order; answers the calls made. */
export function stubFetch(...responses: Response[]): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      calls.push({
        url: new URL(input, 'http://localhost'),
        method: init.method ?? 'GET',
        headers,
        body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      });
      const next = responses.shift();
      if (!next) return Promise.reject(new Error(`unexpected call to ${input}`));
      return Promise.resolve(next);
    }),
  );
  return calls;
}
