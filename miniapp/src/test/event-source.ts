import { act } from '@testing-library/react';
import { vi } from 'vitest';

// jsdom has no EventSource: a fake one the tests drive, standing in for the server's /live streams.

type Listener = (message: MessageEvent<string>) => void;

export class FakeEventSource {
  static instances: FakeEventSource[] = [];
  readonly url: string;
  readonly withCredentials: boolean;
  closed = false;
  private readonly listeners = new Map<string, Set<Listener>>();

  constructor(url: string | URL, init?: EventSourceInit) {
    this.url = String(url);
    this.withCredentials = init?.withCredentials ?? false;
    FakeEventSource.instances.push(this);
  }

  addEventListener(name: string, listener: Listener): void {
    const set = this.listeners.get(name) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(name, set);
  }

  removeEventListener(name: string, listener: Listener): void {
    this.listeners.get(name)?.delete(listener);
  }

  close(): void {
    this.closed = true;
  }

  /** Delivers one server event: `data` is sent as JSON unless it is a string already; `id` is its `id:` line. */
  emit(name: string, data: unknown, id = ''): void {
    const message = new MessageEvent<string>(name, { data: typeof data === 'string' ? data : JSON.stringify(data), lastEventId: id });
    for (const listener of [...(this.listeners.get(name) ?? [])]) listener(message);
  }
}

export interface LiveMock {
  /** The open streams whose address contains `path`. */
  open: (path: string) => FakeEventSource[];
  /** Sends an event on every open stream whose address contains `path`. */
  emit: (path: string, name: string, data: unknown) => void;
  /** Sends the event inside act() and lets the query cache tell its observers (it does so on a timer). */
  push: (path: string, name: string, data: unknown) => Promise<void>;
}

/** Stubs EventSource (restored after the test) with the fake. */
export function mockLive(): LiveMock {
  FakeEventSource.instances = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  const open = (path: string) => FakeEventSource.instances.filter((source) => !source.closed && source.url.includes(path));
  const emit = (path: string, name: string, data: unknown) => {
    for (const source of open(path)) source.emit(name, data);
  };
  return {
    open,
    emit,
    push: async (path, name, data) => {
      await act(async () => {
        emit(path, name, data);
        await new Promise((resolve) => setTimeout(resolve, 0));
      });
    },
  };
}
