import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './layouts.module.css';

/** SPEC §2 game layout: a slim bar back to the game hall, the game filling the rest. */
export function GameLayout() {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <div className={styles.gameShell} data-layout="game">
      <header className={styles.gameBar}>
        <Link to={localizePath(paths.gamehall, locale)} className={styles.gameBack}>
          <Icon name="cards" size={18} />
          {t('game.back')}
        </Link>
        <LanguageSwitch />
      </header>
      <main className={styles.gameMain}>
        <Outlet />
      </main>
    </div>
  );
}
