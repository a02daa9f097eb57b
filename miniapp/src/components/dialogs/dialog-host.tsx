import { useEffect, useRef, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { dialogs as siteDialogs, type DialogEntry, type DialogStack } from '@/lib/dialogs/dialog-stack';
import { useStore } from '@/lib/store';
import styles from './dialog-host.module.css';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

function focusables(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => !element.closest('[inert]'));
}

/** SPEC §4: opening a dialog locks page scroll until the last one closes. */
function useScrollLock(locked: boolean) {
  useEffect(() => {
    if (!locked) return;
    const { documentElement } = document;
    const previous = documentElement.style.overflow;
    documentElement.style.overflow = 'hidden';
    documentElement.dataset.scrollLocked = '';
    return () => {
      documentElement.style.overflow = previous;
      delete documentElement.dataset.scrollLocked;
    };
  }, [locked]);
}

interface DialogFrameProps {
  dialog: DialogEntry;
  isTop: boolean;
  stack: DialogStack;
}

function DialogFrame({ dialog, isTop, stack }: DialogFrameProps) {
  const { t } = useTranslation();
  const panel = useRef<HTMLDivElement>(null);
  const layer = useRef<HTMLDivElement>(null);
  const close = (immediate = false) => stack.close(dialog.id, { immediate });

  // Focus moves into the dialog when it opens and back to where it was when it closes. Content
  // that loads a moment later (lazy forms) takes the focus when it arrives, unless the player
  // has moved it meanwhile.
  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const container = panel.current;
    if (!container) return;
    const autofocusTarget = () => container.querySelector<HTMLElement>('[data-autofocus], [autofocus]');
    const initial = autofocusTarget() ?? focusables(container)[0] ?? container;
    initial.focus();
    const observer = new MutationObserver(() => {
      const target = autofocusTarget();
      if (!target) return;
      observer.disconnect();
      if (document.activeElement === initial) target.focus();
    });
    if (!autofocusTarget()) observer.observe(container, { childList: true, subtree: true });
    return () => {
      observer.disconnect();
      if (before?.isConnected) before.focus();
    };
  }, []);

  // Dialogs under the top one are inert (React 18 has no `inert` prop).
  useEffect(() => {
    layer.current?.toggleAttribute('inert', !isTop);
  }, [isTop]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      close();
      return;
    }
    if (event.key !== 'Tab' || !panel.current) return;
    // Focus trap: Tab and Shift+Tab cycle inside the dialog.
    const items = focusables(panel.current);
    const first = items[0];
    const last = items.at(-1);
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div ref={layer} className={styles.layer} data-kind={dialog.kind}>
      <div
        className={styles.backdrop}
        aria-hidden="true"
        onClick={() => {
          close();
        }}
      />
      <div
        ref={panel}
        role={dialog.kind === 'confirm' ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-label={dialog.label}
        tabIndex={-1}
        className={styles.panel}
        data-size={dialog.size}
        data-kind={dialog.kind}
        data-dialog={dialog.name}
        onKeyDown={onKeyDown}
      >
        {!dialog.preventClose && (
          <button
            type="button"
            className={styles.close}
            aria-label={t('dialog.close')}
            onClick={() => {
              close();
            }}
          >
            <Icon name="close" />
          </button>
        )}
        {dialog.render({ id: dialog.id, close: (options) => stack.close(dialog.id, options) })}
      </div>
    </div>
  );
}

/** Renders the dialog stack: every open dialog, the top one active. */
export function DialogHost({ stack = siteDialogs }: { stack?: DialogStack }) {
  const { open } = useStore(stack.store);
  useScrollLock(open.length > 0);
  if (open.length === 0) return null;
  return createPortal(
    <>
      {open.map((dialog, index) => (
        <DialogFrame key={dialog.id} dialog={dialog} isTop={index === open.length - 1} stack={stack} />
      ))}
    </>,
    document.body,
  );
}
