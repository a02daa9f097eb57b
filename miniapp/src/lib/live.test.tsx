import { act, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockLive } from '@/test/event-source';
import { liveUrl, useLive } from './live';

function Probe({ url, onData }: { url: string | null; onData: (data: unknown) => void }) {
  useLive(url, 'tick', onData);
  return null;
}

describe('useLive', () => {
  it('builds the stream address with the locale', () => {
    expect(liveUrl('tournaments/5', 'fr')).toBe('/live/tournaments/5?locale=fr');
  });

  it('opens the stream with the cookies, hands on the parsed events, skips broken ones, closes on unmount', () => {
    const live = mockLive();
    const onData = vi.fn();
    const view = render(<Probe url="/live/x?locale=en" onData={onData} />);
    const [source] = live.open('/live/x');
    expect(source?.withCredentials).toBe(true);
    act(() => {
      live.emit('/live/x', 'tick', { n: 1 });
      live.emit('/live/x', 'tick', 'not json');
      live.emit('/live/x', 'other', { n: 2 });
    });
    expect(onData.mock.calls).toEqual([[{ n: 1 }]]);
    view.unmount();
    expect(source?.closed).toBe(true);
  });

  it('moves to the new address when it changes, and opens nothing for none', () => {
    const live = mockLive();
    const view = render(<Probe url="/live/a" onData={() => undefined} />);
    view.rerender(<Probe url="/live/b" onData={() => undefined} />);
    expect(live.open('/live/a')).toHaveLength(0);
    expect(live.open('/live/b')).toHaveLength(1);
    view.rerender(<Probe url={null} onData={() => undefined} />);
    expect(live.open('/live/')).toHaveLength(0);
  });

  it('does nothing where the browser has no EventSource', () => {
    expect(() => render(<Probe url="/live/x" onData={() => undefined} />)).not.toThrow();
  });
});
