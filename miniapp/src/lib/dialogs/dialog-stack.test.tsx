import { act, fireEvent, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DialogHost } from '@/components/dialogs/dialog-host';
import { createDialogStack, shouldCloseDialogsOnRouteChange, type DialogRequest } from './dialog-stack';

const request = (name: string, extra: Partial<DialogRequest> = {}): DialogRequest => ({
  name,
  label: `${name} dialog`,
  render: ({ close }) => (
    <div>
      <p>{name} content</p>
      <button type="button" onClick={() => close()}>
        done {name}
      </button>
      <input aria-label={`${name} field`} />
    </div>
  ),
  ...extra,
});

describe('dialog stack', () => {
  it('opens popups with default kind and size, one per name', () => {
    const stack = createDialogStack();
    const first = stack.open(request('authorization'));
    stack.open(request('campaign', { kind: 'curtain', size: 'big' }));
    const again = stack.open(request('authorization', { label: 'replaced' }));

    const { open } = stack.store.get();
    expect(open.map((dialog) => [dialog.name, dialog.kind, dialog.size])).toEqual([
      ['authorization', 'popup', 'custom'],
      ['campaign', 'curtain', 'big'],
    ]);
    expect(again).toBe(first);
    expect(open[0]?.label).toBe('replaced');
  });

  it('refuses to close a dialog that prevents closing, unless immediate', () => {
    const stack = createDialogStack();
    const onClose = vi.fn();
    const id = stack.open(request('socialRegistration', { preventClose: true, onClose }));

    expect(stack.close(id)).toBe(false);
    expect(stack.closeTop()).toBe(false);
    stack.closeAll();
    expect(stack.isOpen('socialRegistration')).toBe(true);
    expect(onClose).not.toHaveBeenCalled();

    expect(stack.close(id, { immediate: true })).toBe(true);
    expect(stack.isOpen('socialRegistration')).toBe(false);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('opens queued dialogs one after another once the stack is empty', () => {
    const stack = createDialogStack();
    const current = stack.open(request('authorization'));
    stack.queue(request('cashback'));
    stack.queue(request('campaign'));
    expect(stack.store.get().open.map((dialog) => dialog.name)).toEqual(['authorization']);

    stack.close(current);
    expect(stack.store.get().open.map((dialog) => dialog.name)).toEqual(['cashback']);
    stack.closeTop();
    expect(stack.store.get().open.map((dialog) => dialog.name)).toEqual(['campaign']);
    stack.closeTop();
    expect(stack.store.get()).toEqual({ open: [], queued: [] });
  });

  it('opens a queued dialog at once when nothing is open', () => {
    const stack = createDialogStack();
    stack.queue(request('cashback'));
    expect(stack.isOpen('cashback')).toBe(true);
  });

  it('closes everything closable at once, keeping what prevents closing', () => {
    const stack = createDialogStack();
    stack.open(request('a'));
    stack.open(request('b', { preventClose: true }));
    stack.open(request('c'));
    stack.closeAll();
    expect(stack.store.get().open.map((dialog) => dialog.name)).toEqual(['b']);
    stack.closeAll({ immediate: true });
    expect(stack.store.get().open).toEqual([]);
  });
});

describe('closing on a route-name change (signed-in players only)', () => {
  it('closes for a signed-in player moving to another route', () => {
    expect(shouldCloseDialogsOnRouteChange('index', 'promotions', true)).toBe(true);
  });

  it('keeps dialogs for guests, for the same route, and on the game and deposit routes', () => {
    expect(shouldCloseDialogsOnRouteChange('index', 'promotions', false)).toBe(false);
    expect(shouldCloseDialogsOnRouteChange('promotions', 'promotions', true)).toBe(false);
    expect(shouldCloseDialogsOnRouteChange('index', 'game-sysname', true)).toBe(false);
    expect(shouldCloseDialogsOnRouteChange('index', 'cashier-deposit', true)).toBe(false);
    expect(shouldCloseDialogsOnRouteChange('cashier-deposit', 'cashier-deposit-sysname', true)).toBe(false);
    expect(shouldCloseDialogsOnRouteChange(undefined, 'index', true)).toBe(false);
  });
});

describe('dialog host', () => {
  it('shows the top dialog as a modal, locks page scroll while any is open, and closes with Escape', () => {
    const stack = createDialogStack();
    render(<DialogHost stack={stack} />);
    expect(document.documentElement.style.overflow).toBe('');

    act(() => {
      stack.open(request('authorization'));
    });
    const dialog = screen.getByRole('dialog', { name: 'authorization dialog' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(document.documentElement.style.overflow).toBe('hidden');

    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.documentElement.style.overflow).toBe('');
  });

  it('has no close button, and ignores Escape and the backdrop, when closing is prevented', () => {
    const stack = createDialogStack();
    render(<DialogHost stack={stack} />);
    act(() => {
      stack.open(request('inactivity', { kind: 'confirm', preventClose: true }));
    });

    const dialog = screen.getByRole('alertdialog', { name: 'inactivity dialog' });
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });

  it('closes with its close button and moves focus into the dialog, trapping Tab inside', () => {
    const stack = createDialogStack();
    render(
      <>
        <button type="button">outside</button>
        <DialogHost stack={stack} />
      </>,
    );
    screen.getByRole('button', { name: 'outside' }).focus();
    act(() => {
      stack.open(request('authorization'));
    });

    const close = screen.getByRole('button', { name: 'Close' });
    const field = screen.getByRole('textbox', { name: 'authorization field' });
    expect(close).toHaveFocus();

    field.focus();
    fireEvent.keyDown(field, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(field).toHaveFocus();

    fireEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'outside' })).toHaveFocus();
  });

  it('gives the focus to content that arrives later (a lazily loaded form) unless the player moved it', async () => {
    const stack = createDialogStack();
    function Late() {
      const [ready, setReady] = useState(false);
      useEffect(() => {
        const timer = setTimeout(() => {
          setReady(true);
        }, 10);
        return () => {
          clearTimeout(timer);
        };
      }, []);
      return ready ? <input aria-label="email" data-autofocus /> : null;
    }
    render(<DialogHost stack={stack} />);
    act(() => {
      stack.open({ name: 'late', label: 'Late', render: () => <Late /> });
    });
    expect(screen.getByRole('button', { name: 'Close' })).toHaveFocus();
    expect(await screen.findByRole('textbox', { name: 'email' })).toHaveFocus();
  });

  it('makes dialogs under the top one inert', () => {
    const stack = createDialogStack();
    render(<DialogHost stack={stack} />);
    act(() => {
      stack.open(request('first'));
      stack.open(request('second'));
    });
    const layers = document.querySelectorAll('[data-dialog]');
    expect(layers[0]?.parentElement).toHaveAttribute('inert');
    expect(layers[1]?.parentElement).not.toHaveAttribute('inert');
  });
});
