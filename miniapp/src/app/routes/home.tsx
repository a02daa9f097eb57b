import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '@/components/ui/icon';
import { gamehallCategoryPath, paths } from '@/config/paths';
import { GeneralInfoPanel } from '@/features/metadata/components/general-info-panel';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import styles from './home.module.css';

const CATEGORIES = [
  { key: 'slots', icon: 'slot', to: gamehallCategoryPath('slots') },
  { key: 'live', icon: 'live', to: gamehallCategoryPath('live') },
  { key: 'table', icon: 'cards', to: gamehallCategoryPath('table') },
  { key: 'betting', icon: 'ball', to: paths.betting },
] as const;

export function HomePage() {
  const { t } = useTranslation();
  const locale = useLocale();

  return (
    <div className={styles.page}>
      <section className={styles.hero}>
        <h1 className={styles.title}>{t('home.title')}</h1>
        <p className={styles.subtitle}>{t('home.subtitle')}</p>
      </section>
      <section aria-labelledby="home-lobby" className={styles.lobby}>
        <h2 id="home-lobby" className={styles.sectionTitle}>
          {t('home.lobby')}
        </h2>
        <ul className={styles.categories}>
          {CATEGORIES.map((category) => (
            <li key={category.key}>
              <Link to={localizePath(category.to, locale)} className={styles.category}>
                <Icon name={category.icon} size={28} className={styles.categoryIcon} />
                <span>{t(`home.categories.${category.key}`)}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className={styles.lobbyNote}>{t('home.lobbySoon')}</p>
      </section>
      <GeneralInfoPanel />
    </div>
  );
}
