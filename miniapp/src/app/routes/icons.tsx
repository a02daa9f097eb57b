import { useTranslation } from 'react-i18next';
import { Icon, ICON_NAMES } from '@/components/ui/icon';
import styles from './pages.module.css';

/** /_icons: every icon of the sprite with its name. */
export function IconsPage() {
  const { t } = useTranslation();
  return (
    <>
      <h1 className={styles.pageTitle}>{t('pages.icons')}</h1>
      <ul className={styles.icons}>
        {ICON_NAMES.map((name) => (
          <li key={name} className={styles.iconCell}>
            <Icon name={name} size={32} />
            <code>{name}</code>
          </li>
        ))}
      </ul>
    </>
  );
}
