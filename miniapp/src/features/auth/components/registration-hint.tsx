import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { depositPath } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { registrationHintLeft } from '../hints';
import styles from './hints.module.css';
import { useTimeLeft } from './use-countdown';

/** SPEC §4 registration hint: for 2 hours after registration while the player has no deposit. */
export function RegistrationHint({ regTime, hasDeposit }: { regTime: number; hasDeposit: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const left = useTimeLeft((now) => registrationHintLeft(regTime, now, hasDeposit));
  if (left <= 0) return null;
  return (
    <aside className={styles.hint} aria-label={t('hints.registration.label')} data-testid="registration-hint">
      <Icon name="gift" className={styles.hintIcon} />
      <p className={styles.hintText}>{t('hints.registration.text')}</p>
      <Link to={localizePath(depositPath(), locale)} className={styles.hintAction}>
        {t('hints.registration.action')}
      </Link>
    </aside>
  );
}
