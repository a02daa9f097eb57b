import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DialogHost } from '@/components/dialogs/dialog-host';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { InactivityWatcher } from './inactivity-watcher';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  dialogs.closeAll({ immediate: true });
  vi.useRealTimers();
});

function setup(timeoutSeconds: number) {
  const onTimeout = vi.fn();
  const onEngaged = vi.fn();
  const element = (
    <>
      <InactivityWatcher timeoutSeconds={timeoutSeconds} onTimeout={onTimeout} onEngaged={onEngaged} />
      <DialogHost />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/', element },
      { path: '/other', element },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return { onTimeout, onEngaged, router };
}

const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });

describe('inactivity watcher', () => {
  it('warns with a countdown in the last 20 %, and "Stay signed in" starts the period again', async () => {
    const { onTimeout } = setup(10);
    await advance(7_900);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await advance(100);
    const warning = screen.getByRole('alertdialog', { name: 'Are you still there?' });
    await advance(300);
    expect(screen.getByTestId('inactivity-countdown')).toHaveTextContent('You will be signed out in 2 s');

    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    expect(warning).not.toBeInTheDocument();
    await advance(9_000);
    expect(onTimeout).not.toHaveBeenCalled();
    await advance(1_000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('counts keydown, scroll and route changes as activity', async () => {
    const { onTimeout, router } = setup(10);
    await advance(7_000);
    fireEvent.keyDown(document.body, { key: 'a' });
    await advance(7_000);
    fireEvent.scroll(document);
    await advance(7_000);
    await act(async () => {
      await router.navigate('/other');
    });
    await advance(7_000);
    expect(onTimeout).not.toHaveBeenCalled();
    await advance(3_000);
    expect(onTimeout).toHaveBeenCalledTimes(1);
  });

  it('counts play in a game’s or provider’s frame: focus moving into it, and staying there while the page is in view', async () => {
    const { onTimeout, onEngaged } = setup(10);
    const frame = document.createElement('iframe');
    document.body.append(frame);
    try {
      await advance(7_000);
      // A click into the frame: the page loses the focus to it.
      frame.focus();
      expect(document.activeElement).toBe(frame);
      act(() => {
        window.dispatchEvent(new Event('blur'));
      });
      // No warning while the focus stays in the frame, period after period; each period the
      // page tells the server the player is still there (at 8, 16, 24 s after the click).
      await advance(30_000);
      expect(screen.queryByRole('alertdialog')).toBeNull();
      expect(onTimeout).not.toHaveBeenCalled();
      expect(onEngaged).toHaveBeenCalledTimes(3);
      // Out of view (another tab, the phone locked): timed again, signed out.
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      await advance(10_000);
      expect(onTimeout).toHaveBeenCalledTimes(1);
    } finally {
      frame.remove();
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    }
  });

  it('times a player whose focus comes back to the page as before', async () => {
    const { onTimeout, onEngaged } = setup(10);
    const frame = document.createElement('iframe');
    document.body.append(frame);
    try {
      frame.focus();
      act(() => {
        window.dispatchEvent(new Event('blur'));
      });
      await advance(7_000);
      // Back on the page: its own clicks and keys count again, and nothing else does — the
      // warning is due a second later, 8 s after the focus moved into the frame.
      frame.blur();
      expect(document.activeElement).not.toBe(frame);
      await advance(1_000);
      expect(screen.getByRole('alertdialog', { name: 'Are you still there?' })).toBeVisible();
      await advance(2_000);
      expect(onTimeout).toHaveBeenCalledTimes(1);
      expect(onEngaged).not.toHaveBeenCalled();
    } finally {
      frame.remove();
    }
  });
});
