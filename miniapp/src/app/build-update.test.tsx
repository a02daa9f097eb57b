import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { mockApi } from '@/test/api-mock';
import { renderApp } from '@/test/render-app';
import { BUILD_CHECK_MS, currentBuildId, newerBuild } from './build-update';

afterEach(() => {
  vi.useRealTimers();
  dialogs.closeAll({ immediate: true });
  document.head.querySelector('meta[name="croupier-build"]')?.remove();
});

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The server as deployed: `served` is the build it serves now. */
function builds(served: () => string): typeof fetch {
  return vi.fn<typeof fetch>((input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url === '/builds/latest.json') return Promise.resolve(json({ id: served(), timestamp: 1 }));
    const id = /\/builds\/meta\/(.+)\.json$/.exec(url)?.[1];
    return Promise.resolve(id === served() ? json({ id, timestamp: 1 }) : json({ error: 'unknown build' }, 404));
  });
}

describe('the build-update check', () => {
  it('reads the build from the head and finds a newer one only when the server says so', async () => {
    const meta = document.createElement('meta');
    meta.name = 'croupier-build';
    meta.content = 'aaaa1111';
    document.head.append(meta);
    expect(currentBuildId()).toBe('aaaa1111');
    expect(await newerBuild('aaaa1111', builds(() => 'aaaa1111'))).toBeNull();
    expect(await newerBuild('aaaa1111', builds(() => 'bbbb2222'))).toBe('bbbb2222');
    const down = vi.fn<typeof fetch>(() => Promise.reject(new TypeError('offline')));
    expect(await newerBuild('aaaa1111', down)).toBeNull();
    const failing = vi.fn<typeof fetch>(() => Promise.resolve(json({}, 502)));
    expect(await newerBuild('aaaa1111', failing)).toBeNull();
  });

  it('offers a reload after a deploy, never over a dialog, and Later puts it off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const meta = document.createElement('meta');
    meta.name = 'croupier-build';
    meta.content = 'aaaa1111';
    document.head.append(meta);
    let served = 'aaaa1111';
    const api = mockApi();
    const site = builds(() => served);
    const original = api.fetch.getMockImplementation();
    if (!original) throw new Error('the API mock has no implementation');
    api.fetch.mockImplementation((input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      return url.startsWith('/builds/') ? site(input, init) : original(input, init);
    });
    renderApp('/');
    await waitFor(() => { expect(document.querySelector('[data-layout="default"]')).not.toBeNull(); });
    await act(async () => { await vi.advanceTimersByTimeAsync(BUILD_CHECK_MS); });
    expect(screen.queryByTestId('build-update')).toBeNull();
    served = 'bbbb2222';
    dialogs.open({ name: 'some-dialog', label: 'Some dialog', render: () => <p>open</p> });
    await act(async () => { await vi.advanceTimersByTimeAsync(BUILD_CHECK_MS); });
    expect(screen.queryByTestId('build-update')).toBeNull();
    act(() => { dialogs.closeAll({ immediate: true }); });
    const offer = await screen.findByTestId('build-update');
    expect(offer).toHaveAttribute('data-build', 'bbbb2222');
    expect(offer).toHaveTextContent('A new version of the site is available.');
    fireEvent.click(screen.getByRole('button', { name: 'Later' }));
    expect(screen.queryByTestId('build-update')).toBeNull();
  });
});
