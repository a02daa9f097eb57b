import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Icon } from '@/components/ui/icon';
import styles from './pages.module.css';

/** /game/{sysname} in the game layout; the game itself arrives with the games work. */
export function GamePage() {
  const { t } = useTranslation();
  const { sysname = '' } = useParams();
  return (
    <section className={styles.game} data-testid="coming-soon" data-route="game-sysname">
      <Icon name="slot" size={48} />
      <h1 className={styles.gameTitle}>{sysname}</h1>
      <p className={styles.soonText}>{t('game.soon')}</p>
    </section>
  );
}
