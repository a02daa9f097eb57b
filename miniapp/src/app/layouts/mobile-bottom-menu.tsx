import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { menuItemText, useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './mobile-bottom-menu.module.css';

/** SPEC §3 common data: the mobile bottom menu (phones only). */
export function MobileBottomMenu() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { common } = useSiteConfig();
  return (
    <nav className={styles.menu} aria-label={t('menu.mobileLabel')}>
      {common.mobileBottomMenu.map((item) => (
        <NavLink key={item.to} to={localizePath(item.to, locale)} end className={() => styles.item}>
          <Icon name={item.icon} size={22} />
          <span className={styles.label}>{menuItemText(item, t)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
