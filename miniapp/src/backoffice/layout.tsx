// The console's layout: react-admin's responsive layout (a drawer menu that collapses on tablets
// and phones) with a menu of the resources the operator may see, then the pages that are not
// resources, each shown only with its permission.
import ArticleIcon from '@mui/icons-material/Article';
import InsightsIcon from '@mui/icons-material/Insights';
import LoyaltyIcon from '@mui/icons-material/Loyalty';
import SettingsIcon from '@mui/icons-material/Settings';
import TuneIcon from '@mui/icons-material/Tune';
import type { ReactNode } from 'react';
import { Layout, Menu, usePermissions } from 'react-admin';
import { can } from './lib/permissions';

export function BackofficeMenu() {
  const { permissions } = usePermissions<string[]>();
  return (
    <Menu>
      <Menu.ResourceItems />
      {can(permissions, 'reports.read') ? <Menu.Item to="/reports" primaryText="bo.menu.reports" leftIcon={<InsightsIcon />} /> : null}
      {can(permissions, 'system.manage') ? <Menu.Item to="/system" primaryText="bo.menu.system" leftIcon={<SettingsIcon />} /> : null}
      {can(permissions, 'campaigns.manage') ? <Menu.Item to="/loyalty" primaryText="bo.menu.loyalty" leftIcon={<LoyaltyIcon />} /> : null}
      {can(permissions, 'content.manage') ? <Menu.Item to="/content" primaryText="bo.menu.content" leftIcon={<ArticleIcon />} /> : null}
      {can(permissions, 'sportsbook.manage') ? (
        <Menu.Item to="/sportsbook-limits" primaryText="bo.menu.sportsbook_limits" leftIcon={<TuneIcon />} />
      ) : null}
    </Menu>
  );
}

export function BackofficeLayout({ children }: { children: ReactNode }) {
  return <Layout menu={BackofficeMenu}>{children}</Layout>;
}
