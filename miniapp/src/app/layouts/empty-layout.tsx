import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './layouts.module.css';

/** SPEC §2 empty layout: the page alone, under the logo (sign-in forms, maintenance, forbidden). */
export function EmptyFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className={styles.emptyShell} data-layout="empty">
      <Link to={localizePath(paths.home, locale)} className={styles.emptyBrand} aria-label={t('header.home')}>
        <span className={styles.emptyLogo} aria-hidden="true">
          <Icon name="spade" size={22} />
        </span>
        {t('app.name')}
      </Link>
      <main className={styles.emptyMain}>{children}</main>
    </div>
  );
}

export function EmptyLayout() {
  return (
    <EmptyFrame>
      <Outlet />
    </EmptyFrame>
  );
}
