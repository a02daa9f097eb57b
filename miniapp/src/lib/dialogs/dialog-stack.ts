import type { ReactNode } from 'react';
import { createStore, type Store } from '@/lib/store';

/** SPEC §2 "Dialogs": kinds and sizes. */
export type DialogKind = 'popup' | 'confirm' | 'curtain';
export type DialogSize = 'full' | 'big' | 'custom';

export interface DialogControls {
  id: number;
  /** Closes this dialog; refused while it prevents closing, unless `immediate`. */
  close: (options?: CloseOptions) => boolean;
}

export interface DialogRequest {
  /** The content's sysname (`authorization`, `registration`, `inactivity`…); one dialog per name. */
  name: string;
  /** Accessible name of the dialog. */
  label: string;
  kind?: DialogKind;
  size?: DialogSize;
  /** SPEC §2 prevent_close: the player cannot close it (no close button, no Escape, no backdrop). */
  preventClose?: boolean;
  render: (controls: DialogControls) => ReactNode;
  /** Runs once the dialog has closed, however it closed (`how`: by the player or a route change). */
  onClose?: (how: CloseReason) => void;
}

/** `closed`: by the player or the app; `route`: swept away by a route-name change (SPEC §4). */
export type CloseReason = 'closed' | 'route';

export interface DialogEntry extends Required<Omit<DialogRequest, 'onClose'>> {
  id: number;
  onClose: ((how: CloseReason) => void) | undefined;
}

export interface DialogState {
  /** Open dialogs, bottom first; the last one is on top. */
  open: readonly DialogEntry[];
  /** Dialogs waiting for the stack to empty, first in first out. */
  queued: readonly DialogEntry[];
}

export interface CloseOptions {
  /** Closes even a dialog that prevents closing. */
  immediate?: boolean;
  /** Why, as `onClose` hears it (default `closed`). */
  reason?: CloseReason;
}

export interface DialogStack {
  store: Store<DialogState>;
  /** Opens at once on top of the stack; a dialog of the same name is replaced in place. */
  open: (request: DialogRequest) => number;
  /** Opens when no dialog is open any more (SPEC §4: queued dialogs open one after another). */
  queue: (request: DialogRequest) => number;
  close: (id: number, options?: CloseOptions) => boolean;
  /** Closes the top dialog (Escape, backdrop). */
  closeTop: (options?: CloseOptions) => boolean;
  /** Closes every open dialog that may close; the queue is kept. */
  closeAll: (options?: CloseOptions) => void;
  isOpen: (name: string) => boolean;
}

export function createDialogStack(): DialogStack {
  const store = createStore<DialogState>({ open: [], queued: [] });
  let nextId = 1;

  const entry = (request: DialogRequest): DialogEntry => ({
    id: nextId++,
    name: request.name,
    label: request.label,
    kind: request.kind ?? 'popup',
    size: request.size ?? 'custom',
    preventClose: request.preventClose ?? false,
    render: request.render,
    onClose: request.onClose,
  });

  /** Moves the first queued dialog onto an empty stack. */
  const drain = (state: DialogState): DialogState => {
    if (state.open.length > 0 || state.queued.length === 0) return state;
    const [first, ...rest] = state.queued;
    return first ? { open: [first], queued: rest } : state;
  };

  const open = (request: DialogRequest): number => {
    const existing = store.get().open.find((dialog) => dialog.name === request.name);
    if (existing) {
      const replacement = { ...entry(request), id: existing.id };
      store.set((state) => ({
        ...state,
        open: state.open.map((dialog) => (dialog.id === existing.id ? replacement : dialog)),
      }));
      return existing.id;
    }
    const created = entry(request);
    store.set((state) => ({ ...state, open: [...state.open, created] }));
    return created.id;
  };

  const queue = (request: DialogRequest): number => {
    const created = entry(request);
    store.set((state) => drain({ ...state, queued: [...state.queued, created] }));
    return created.id;
  };

  const remove = (ids: ReadonlySet<number>, reason: CloseReason) => {
    const closed = store.get().open.filter((dialog) => ids.has(dialog.id));
    store.set((state) => drain({ ...state, open: state.open.filter((dialog) => !ids.has(dialog.id)) }));
    for (const dialog of closed) dialog.onClose?.(reason);
  };

  const close = (id: number, { immediate = false, reason = 'closed' }: CloseOptions = {}): boolean => {
    const state = store.get();
    const dialog = state.open.find((candidate) => candidate.id === id);
    if (!dialog) {
      // A queued dialog that is no longer wanted simply leaves the queue.
      if (state.queued.some((candidate) => candidate.id === id)) {
        store.set((current) => ({ ...current, queued: current.queued.filter((candidate) => candidate.id !== id) }));
        return true;
      }
      return false;
    }
    if (dialog.preventClose && !immediate) return false;
    remove(new Set([id]), reason);
    return true;
  };

  const closeTop = (options?: CloseOptions): boolean => {
    const top = store.get().open.at(-1);
    return top ? close(top.id, options) : false;
  };

  const closeAll = ({ immediate = false, reason = 'closed' }: CloseOptions = {}) => {
    const ids = store
      .get()
      .open.filter((dialog) => immediate || !dialog.preventClose)
      .map((dialog) => dialog.id);
    if (ids.length > 0) remove(new Set(ids), reason);
  };

  const isOpen = (name: string) => store.get().open.some((dialog) => dialog.name === name);

  return { store, open, queue, close, closeTop, closeAll, isOpen };
}

/** The site's one dialog stack. */
export const dialogs = createDialogStack();

/**
 * SPEC §2/§4: dialogs stay open across a route-name change on these routes (the game page and
 * the deposit pages); elsewhere a signed-in player's dialogs close when the route name changes.
 */
export const ROUTES_KEEPING_DIALOGS: readonly string[] = ['game-sysname', 'cashier-deposit-sysname', 'cashier-deposit'];

export function shouldCloseDialogsOnRouteChange(
  previousName: string | undefined,
  nextName: string | undefined,
  isAuthenticated: boolean,
): boolean {
  if (!isAuthenticated || previousName === undefined || previousName === nextName) return false;
  return nextName === undefined || !ROUTES_KEEPING_DIALOGS.includes(nextName);
}
