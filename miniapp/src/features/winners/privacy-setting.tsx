import { useTranslation } from 'react-i18next';
import screens from '@/components/screens.module.css';
import { useAccount } from '@/features/account';
import { haptic } from '@/lib/telegram';
import { showToast } from '@/lib/toasts/toast-store';
import { usePrivacy, useSetPrivacy, WINNER_DISPLAYS } from './api/privacy';
import styles from './winners.module.css';

/** "How you appear in the winners list", for a signed-in player: nickname, masked login or hidden. */
export function PrivacySetting() {
  const { t } = useTranslation();
  const account = useAccount();
  const privacy = usePrivacy();
  const change = useSetPrivacy();
  if (!account) return null;
  const chosen = change.isPending ? change.variables : privacy.data?.display;
  return (
    <fieldset className={`${screens.card} ${styles.privacy}`} data-testid="winners-privacy" disabled={!privacy.data || change.isPending}>
      <legend className={styles.legend}>{t('winners.privacy.title')}</legend>
      <div className={styles.options}>
        {WINNER_DISPLAYS.map((display) => (
          <label key={display} className={styles.option}>
            <input
              type="radio"
              name="winners-display"
              value={display}
              checked={chosen === display}
              data-testid={`winners-privacy-${display}`}
              onChange={() => {
                haptic('selection');
                change.mutate(display, {
                  onSuccess: () => showToast({ type: 'success', message: t('winners.privacy.saved') }),
                  onError: () => {
                    haptic('error');
                    showToast({ type: 'error', message: t('winners.privacy.failed') });
                  },
                });
              }}
            />
            {t(`winners.privacy.${display}`)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
