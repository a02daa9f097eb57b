import { useEffect, useRef } from 'react';
import type { Locale } from '@/config/locales';

// The server's live streams (Server-Sent Events under /live/…): leaderboards, jackpot amounts,
// big wins. EventSource reconnects by itself after a dropped connection; a browser without it
// (or a test environment) simply gets no live updates.

/** `/live/{path}?locale=…`: the stream's texts come in the page's language. */
export function liveUrl(path: string, locale: Locale): string {
  return `/live/${path}?${new URLSearchParams({ locale }).toString()}`;
}

/**
 * Listens to the events named `event` of the stream at `url` (none while null) with the
 * visitor's cookies, handing each one's parsed JSON `data` to `onData` (the caller knows its
 * shape); closed on unmount or when the address changes. A message that is not JSON is skipped.
 */
export function useLive(url: string | null, event: string, onData: (data: unknown) => void): void {
  const handler = useRef(onData);
  useEffect(() => {
    handler.current = onData;
  });
  useEffect(() => {
    if (url === null || !('EventSource' in globalThis)) return undefined;
    const source = new EventSource(url, { withCredentials: true });
    const listener = (message: MessageEvent<unknown>) => {
      if (typeof message.data !== 'string') return;
      let data: unknown;
      try {
        data = JSON.parse(message.data);
      } catch {
        return;
      }
      handler.current(data);
    };
    source.addEventListener(event, listener);
    return () => {
      source.removeEventListener(event, listener);
      source.close();
    };
  }, [url, event]);
}
