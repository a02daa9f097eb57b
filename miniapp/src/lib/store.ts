import { useSyncExternalStore } from 'react';

export interface Store<S> {
  get: () => S;
  set: (next: S | ((current: S) => S)) => void;
  subscribe: (listener: () => void) => () => void;
}

/** A minimal observable value for app-wide UI state (dialogs, toasts, fatal errors). */
export function createStore<S>(initial: S): Store<S> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set: (next) => {
      const value = typeof next === 'function' ? (next as (current: S) => S)(state) : next;
      if (Object.is(value, state)) return;
      state = value;
      for (const listener of [...listeners]) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function useStore<S>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
