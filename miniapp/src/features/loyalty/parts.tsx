import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import screens from '@/components/screens.module.css';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { progressPercent, type LoyaltyInfo, type Program, type Quest } from './api/loyalty';
import styles from './loyalty.module.css';

/** Points, level and the way to the next one (SPEC §3 "Progress"). */
export function LoyaltySummary({ info }: { info: LoyaltyInfo }) {
  const { t } = useTranslation();
  const percent = progressPercent(info.progress);
  const level = info.levels.find((l) => l.level === info.level);
  const next = info.levels.find((l) => l.level > info.level);
  return (
    <section className={styles.hero} aria-label={t('loyalty.summary')}>
      <div className={styles.summary}>
        <span className={styles.points} data-testid="loyalty-points" data-points={info.points}>
          {t('loyalty.points', { count: info.points, alias: info.pointsAlias })}
        </span>
        <span className={screens.muted} data-testid="loyalty-lifetime">
          {t('loyalty.lifetime', { count: info.lifetime_points, alias: info.pointsAlias })}
        </span>
        <span data-testid="loyalty-level" data-level={info.level}>
          {level ? t('loyalty.level', { level: level.level, title: level.title }) : t('loyalty.noLevel')}
        </span>
      </div>
      <div
        className={styles.bar}
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-label={t('loyalty.progress')}
        data-testid="loyalty-progress"
      >
        <div className={styles.barFill} style={{ width: `${percent}%` }} />
      </div>
      <span className={screens.muted}>
        {next
          ? t('loyalty.toNext', { count: Math.max(0, next.min_points - info.lifetime_points), title: next.title, alias: info.pointsAlias })
          : t('loyalty.top')}
      </span>
      {!info.is_active && <p className={screens.alert}>{t('loyalty.inactive')}</p>}
    </section>
  );
}

/** The programme's levels, the reached ones marked. */
export function LevelsList({ levels, alias }: { levels: LoyaltyInfo['levels']; alias: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ul className={styles.grid} aria-label={t('loyalty.levels')}>
      {levels.map((l) => (
        <li key={l.level} className={styles.tile} data-testid="loyalty-level-item" data-reached={l.reached}>
          {l.image && <img className={styles.tileImage} src={l.image} alt="" loading="lazy" />}
          <strong>{t('loyalty.level', { level: l.level, title: l.title })}</strong>
          <span className={screens.muted}>{t('loyalty.from', { count: l.min_points, alias })}</span>
          {l.description && <span>{l.description}</span>}
          {l.reward && <span>{t('loyalty.reward', { amount: formatMoney(l.reward.amount, l.reward.currency, locale) })}</span>}
          {l.reached && <span className={screens.status}>{t('loyalty.reached')}</span>}
        </li>
      ))}
    </ul>
  );
}

export function QuestItem({ quest }: { quest: Quest }) {
  const { t } = useTranslation();
  const percent = quest.target > 0 ? Math.min(100, Math.floor((quest.progress * 100) / quest.target)) : 100;
  return (
    <li className={styles.tile} data-testid="loyalty-quest" data-completed={quest.completed}>
      <strong>{quest.title}</strong>
      {quest.description && <span>{quest.description}</span>}
      <div className={styles.bar} role="progressbar" aria-valuemin={0} aria-valuemax={quest.target} aria-valuenow={quest.progress} aria-label={quest.title}>
        <div className={styles.barFill} style={{ width: `${percent}%` }} />
      </div>
      <span className={screens.muted}>
        {t('loyalty.questProgress', { progress: quest.progress, target: quest.target })} ·{' '}
        {t('loyalty.questReward', { count: quest.reward_points })}
      </span>
      {quest.completed && <span className={screens.status}>{t('loyalty.questDone')}</span>}
    </li>
  );
}

/** A programme of quests, as a card linking to its page. */
export function ProgramCard({ program }: { program: Program }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <li className={styles.tile}>
      <Link to={localizePath(`/loyalty/${program.sysname}`, locale)} data-testid="loyalty-program">
        <strong>{program.title}</strong>
      </Link>
      {program.description && <span>{program.description}</span>}
      <span className={screens.muted}>{t('loyalty.questsDone', { done: program.completed, total: program.total })}</span>
    </li>
  );
}
