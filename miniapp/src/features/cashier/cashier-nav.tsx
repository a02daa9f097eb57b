import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import type { ReactNode } from 'react';
import { useRouteHandle } from '@/lib/route-handle';

const TABS = [
  ['deposit', '/cashier/deposit'],
  ['withdraw', '/cashier/withdraw'],
  ['history', '/cashier/history'],
  ['wallet', '/cashier/wallet'],
] as const;

/** The cashier frame: its sections and the view of the cashier config (ContainerView / ContainerScrollView). */
export function CashierFrame({ title, children }: { title: string; children: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { cashier } = useSiteConfig();
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-view={cashier.depositView} data-testid="cashier" data-route={route}>
      <h1 className={screens.title}>{title}</h1>
      <nav className={screens.tabs} aria-label={t('cashier.sections')}>
        {TABS.map(([key, to]) => (
          <NavLink key={key} to={localizePath(to, locale)} className={screens.tab ?? ''} end={key !== 'deposit'}>
            {t(`cashier.tab.${key}`)}
          </NavLink>
        ))}
      </nav>
      <div style={cashier.depositView === 'ContainerScrollView' ? { maxHeight: '75vh', overflowY: 'auto' } : undefined}>
        {children}
      </div>
    </div>
  );
}
