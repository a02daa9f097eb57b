import { Button } from '@/components/ui/button';
import { onApiError } from '@/lib/api/client';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n } from '@/lib/i18n';
import styles from './protection.module.css';

/** The errors that ask the player to verify their identity first. */
export const VERIFICATION_ERRORS: ReadonlySet<string> = new Set(['KycWithdrawalException', 'SumsubVerificationRequiredException']);

/**
 * SPEC §2's identity-verification dialog: what is asked and the way to `/profile/verification`
 * (`go` navigates there in the page's language).
 */
export function openVerificationDialog(go: () => void): number {
  return dialogs.open({
    name: 'identity-verification',
    label: i18n.t('verification.dialogTitle'),
    kind: 'popup',
    render: ({ close }) => (
      <div className={styles.reality} data-testid="verification-dialog">
        <h2>{i18n.t('verification.dialogTitle')}</h2>
        <p>{i18n.t('verification.dialogText')}</p>
        <div className={styles.actions}>
          <Button
            data-autofocus
            onClick={() => {
              close({ immediate: true });
              go();
            }}
          >
            {i18n.t('verification.dialogGo')}
          </Button>
        </div>
      </div>
    ),
  });
}

/** Opens the dialog whenever a call answers that verification is needed. Returns the uninstall function. */
export function installVerificationDialog(go: () => void): () => void {
  return onApiError((error) => {
    if (VERIFICATION_ERRORS.has(error.type) && !dialogs.isOpen('identity-verification')) openVerificationDialog(go);
  });
}
