import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/account/api/get-account-info';
import type { AuthView } from '@/features/auth/components/auth-dialog';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { SignInContent } from '@/features/auth/sign-in-content';
import styles from './pages.module.css';

function FormsAuthPage({ view }: { view: AuthView }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useAccount();
  return (
    <div className={styles.authCard}>
      {account ? (
        <div className={styles.signedIn}>
          <p>{t('auth.alreadySignedIn', { login: account.fakename ?? account.login })}</p>
          <Link to={localizePath(paths.home, locale)} className={buttonClassName()}>
            {t('comingSoon.back')}
          </Link>
        </div>
      ) : (
        <SignInContent view={view} onSignedIn={() => undefined} />
      )}
    </div>
  );
}

/** /forms/sign_in (empty layout). */
export function SignInFormPage() {
  return <FormsAuthPage view="authorization" />;
}

/** /forms/sign_up (empty layout). */
export function SignUpFormPage() {
  return <FormsAuthPage view="registration" />;
}
