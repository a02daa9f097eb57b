import { Button } from '@/components/ui/button';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n } from '@/lib/i18n';
import styles from './confirm-dialog.module.css';

export interface ConfirmRequest {
  /** The dialog's name in the stack (SPEC §2 contents: bonus activate / remove, burn-bonuses, a cash-out). */
  name: string;
  title: string;
  /** Paragraphs of the question. */
  text: readonly string[];
  confirmLabel: string;
  cancelLabel?: string;
  /** The test id of the confirm button. */
  testId: string;
  onConfirm: () => void;
}

/** A confirm dialog: the question, the button that goes on and the one that stops. */
export function openConfirm({ name, title, text, confirmLabel, cancelLabel, testId, onConfirm }: ConfirmRequest): number {
  return dialogs.open({
    name,
    label: title,
    kind: 'confirm',
    render: ({ close }) => (
      <div className={styles.confirm} data-testid={`${testId}-dialog`}>
        <h2 className={styles.confirmTitle}>{title}</h2>
        {text.map((paragraph) => (
          <p key={paragraph} className={styles.confirmText}>
            {paragraph}
          </p>
        ))}
        <div className={styles.actions}>
          <Button
            data-testid={testId}
            onClick={() => {
              close({ immediate: true });
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
          <Button variant="secondary" data-testid="confirm-cancel" data-autofocus onClick={() => close()}>
            {cancelLabel ?? i18n.t('app.cancel')}
          </Button>
        </div>
      </div>
    ),
  });
}
