import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icon';
import { dismissToast, toastStore } from '@/lib/toasts/toast-store';
import { useStore } from '@/lib/store';
import styles from './toast-host.module.css';

const ICONS = { success: 'check', error: 'cross', info: 'info' } as const;
const ICON_SIZES = { small: 16, medium: 20, large: 28 } as const;

/** SPEC §2/§4: toasts appear under the header and leave on their own. */
export function ToastHost() {
  const { t } = useTranslation();
  const toasts = useStore(toastStore);
  return (
    <div className={styles.region} aria-live="polite" aria-label={t('toast.region')} role="region">
      {toasts.map((toast) => (
        <div key={toast.id} className={styles.toast} data-type={toast.type} role={toast.type === 'error' ? 'alert' : 'status'}>
          <Icon name={ICONS[toast.type]} size={ICON_SIZES[toast.iconSize]} className={styles.icon} />
          <p className={styles.message}>{toast.message}</p>
          <button
            type="button"
            className={styles.dismiss}
            aria-label={t('toast.dismiss')}
            onClick={() => {
              dismissToast(toast.id);
            }}
          >
            <Icon name="close" size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
