import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { showToast } from '@/lib/toasts/toast-store';
import { getAccountInfo, type AccountInfo } from '@/features/account';
import { openSocialSignIn, type SocialTypeAuth } from '../social-sign-in';
import styles from './auth-forms.module.css';

export interface SocialButtonsProps {
  typeAuth: SocialTypeAuth;
  onSignedIn: (account: AccountInfo) => void;
}

/** SPEC §1 social sign-in through a popup: one button per provider of the auth config. */
export function SocialButtons({ typeAuth, onSignedIn }: SocialButtonsProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { auth } = useSiteConfig();
  const [busy, setBusy] = useState(false);
  if (auth.socialProviders.length === 0) return null;

  const start = async (service: string) => {
    setBusy(true);
    try {
      const result = await openSocialSignIn(service, typeAuth, window.location.pathname + window.location.search, locale);
      if (result.status === 'ok') onSignedIn(await getAccountInfo());
      else if (result.status === 'error') showToast({ type: 'error', message: t('auth.social.failed') });
    } catch (error) {
      console.error('social sign-in failed', error);
      showToast({ type: 'error', message: t('auth.social.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.social}>
      <p className={styles.socialLabel}>{t('auth.social.or')}</p>
      {auth.socialProviders.map((provider) => (
        <button
          key={provider.name}
          type="button"
          className={styles.socialButton}
          disabled={busy}
          data-service={provider.name}
          onClick={() => void start(provider.name)}
        >
          {provider.icon && <img src={provider.icon} alt="" width={20} height={20} />}
          {t('auth.social.continueWith', { provider: provider.title })}
        </button>
      ))}
    </div>
  );
}
