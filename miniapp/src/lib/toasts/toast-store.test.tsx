import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastHost } from '@/components/toasts/toast-host';
import { showToast, TOAST_DEFAULT_TIMEOUT_MS, toastStore } from './toast-store';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  toastStore.set([]);
});

describe('toasts', () => {
  it('leave after 5000 ms by default, with a medium icon', () => {
    expect(TOAST_DEFAULT_TIMEOUT_MS).toBe(5000);
    render(<ToastHost />);
    act(() => {
      showToast({ message: 'Saved', type: 'success' });
    });
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    expect(toastStore.get()[0]?.iconSize).toBe('medium');

    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(screen.queryByText('Saved')).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Saved')).toBeNull();
  });

  it('honour their own time and show errors as alerts', () => {
    render(<ToastHost />);
    act(() => {
      showToast({ message: 'Failed', type: 'error', timeoutMs: 1000 });
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Failed');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
