import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { buttonClassName } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import styles from './pages.module.css';

/** A real route whose screen is not built yet: its title and an honest note, in its layout. */
export function ComingSoonPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const handle = useRouteHandle();
  const title = t(`pages.${handle?.title ?? 'home'}`);
  return (
    <section className={styles.comingSoon} data-testid="coming-soon" data-route={handle?.name}>
      <h1 className={styles.pageTitle}>{title}</h1>
      <div className={styles.soonCard}>
        <Icon name="clock" size={32} className={styles.soonIcon} />
        <p className={styles.soonText}>{t('comingSoon.text')}</p>
        <Link to={localizePath(paths.home, locale)} className={buttonClassName('secondary')}>
          {t('comingSoon.back')}
        </Link>
      </div>
    </section>
  );
}
