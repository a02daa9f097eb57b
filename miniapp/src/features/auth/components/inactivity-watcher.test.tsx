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
  const element = (
    <>
      <InactivityWatcher timeoutSeconds={timeoutSeconds} onTimeout={onTimeout} />
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
  return { onTimeout, router };
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
});
