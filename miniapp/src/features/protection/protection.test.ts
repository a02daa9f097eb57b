import { afterEach, describe, expect, it } from 'vitest';
import { resetScriptsForTests } from '@/lib/load-script';
import { CHAT_PROVIDERS } from './chat-providers';
import { nextCheckIn } from './reality-check';
import { exclusionEnd, limitChangeTiming } from './responsible-tools';

const g = globalThis as unknown as Record<string, unknown>;

describe('the reality check timing', () => {
  const start = 1_700_000_000; // unix seconds
  it('comes every interval from the session start', () => {
    expect(nextCheckIn(start, 15, start * 1000 + 10 * 60_000)).toBe(5 * 60_000);
    expect(nextCheckIn(start, 15, start * 1000 + 16 * 60_000)).toBe(14 * 60_000);
    expect(nextCheckIn(start, 30, start * 1000)).toBe(30 * 60_000);
    expect(nextCheckIn(start, 15, start * 1000 + 15 * 60_000)).toBe(15 * 60_000);
  });
});

describe('an exclusion', () => {
  it('ends the chosen number of days from now', () => {
    expect(exclusionEnd(183, 0).getTime()).toBe(183 * 86_400_000);
  });
});

describe('the chat providers', () => {
  afterEach(() => {
    resetScriptsForTests();
    document.head.innerHTML = '';
    for (const name of ['intercomSettings', 'Intercom', '$crisp', 'CRISP_WEBSITE_ID', 'Tawk_API', '__lc']) Reflect.deleteProperty(g, name);
  });
  const identity = { user_id: '42', email: 'ann@example.com', name: 'Ann', signature: 'proof' };
  const scripts = () => [...document.head.querySelectorAll('script')].map((s) => s.src);

  it('exist for the six providers the server configures', () => {
    expect(Object.keys(CHAT_PROVIDERS).sort()).toEqual(['crisp', 'freshchat', 'intercom', 'livechat', 'tawkto', 'zendesk']);
  });

  it('Intercom gets the player with the server-computed user_hash, and shuts down on reset', () => {
    const calls: unknown[][] = [];
    g.Intercom = (...args: unknown[]) => calls.push(args);
    void CHAT_PROVIDERS.intercom?.load('app1', identity);
    expect(g.intercomSettings).toEqual({ app_id: 'app1', user_id: '42', email: 'ann@example.com', name: 'Ann', user_hash: 'proof' });
    expect(scripts()).toEqual(['https://widget.intercom.io/widget/app1']);
    CHAT_PROVIDERS.intercom?.reset();
    expect(calls).toEqual([['shutdown']]);
  });

  it('Crisp gets the signed e-mail and a guest gets nothing', () => {
    void CHAT_PROVIDERS.crisp?.load('site-1', identity);
    expect(g.CRISP_WEBSITE_ID).toBe('site-1');
    expect(g.$crisp).toEqual([
      ['set', 'user:email', ['ann@example.com', 'proof']],
      ['set', 'user:nickname', ['Ann']],
    ]);
    expect(scripts()).toEqual(['https://client.crisp.chat/l.js']);
    CHAT_PROVIDERS.crisp?.reset();
    expect((g.$crisp as unknown[]).at(-1)).toEqual(['do', 'session:reset']);
  });

  it('Tawk.to and LiveChat load their account and know the visitor', () => {
    void CHAT_PROVIDERS.tawkto?.load('prop/widget', identity);
    expect(g.Tawk_API).toEqual({ visitor: { name: 'Ann', email: 'ann@example.com', hash: 'proof' } });
    void CHAT_PROVIDERS.livechat?.load('12345', null);
    expect(g.__lc).toEqual({ license: 12345, visitor: undefined });
    expect(scripts()).toEqual(['https://embed.tawk.to/prop/widget', 'https://cdn.livechatinc.com/tracking.js']);
  });
});

const limit = (amount: string | null) => ({
  period: 'day',
  limit_amount: amount === null ? null : { amount, currency: 'USD' },
  available_amount: null,
  can_edit: true,
  expired_at: null,
});

describe('limit changes (24-hour rule)', () => {
  it('applies new and lower limits at once', () => {
    expect(limitChangeTiming(undefined, '100')).toBe('now');
    expect(limitChangeTiming(limit(null), '100')).toBe('now');
    expect(limitChangeTiming(limit('100.00'), '50')).toBe('now');
    expect(limitChangeTiming(limit('100.00'), '100')).toBe('now');
  });

  it('waits 24 hours to raise or remove a limit', () => {
    expect(limitChangeTiming(limit('100.00'), '101')).toBe('after24h');
    expect(limitChangeTiming(limit('100.00'), '')).toBe('after24h');
    expect(limitChangeTiming(limit(null), ' ')).toBe('none');
  });
});

