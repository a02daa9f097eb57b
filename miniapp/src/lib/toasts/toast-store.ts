import { createStore } from '@/lib/store';

/** SPEC §9: toasts leave after 5000 ms unless told otherwise, with a medium icon. */
export const TOAST_DEFAULT_TIMEOUT_MS = 5000;

export type ToastType = 'success' | 'error' | 'info';

export interface Toast {
  id: number;
  type: ToastType;
  message: string;
  iconSize: 'small' | 'medium' | 'large';
}

export interface ToastRequest {
  message: string;
  type?: ToastType;
  timeoutMs?: number;
  iconSize?: Toast['iconSize'];
}

export const toastStore = createStore<readonly Toast[]>([]);
let nextId = 1;

export function dismissToast(id: number): void {
  toastStore.set((toasts) => toasts.filter((toast) => toast.id !== id));
}

export function showToast({ message, type = 'info', timeoutMs = TOAST_DEFAULT_TIMEOUT_MS, iconSize = 'medium' }: ToastRequest): number {
  const id = nextId++;
  toastStore.set((toasts) => [...toasts, { id, type, message, iconSize }]);
  setTimeout(() => {
    dismissToast(id);
  }, timeoutMs);
  return id;
}
