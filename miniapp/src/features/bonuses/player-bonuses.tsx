import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { paths } from '@/config/paths';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { CURRENT_STATUSES, FINISHED_STATUSES, useBonuses } from './api/get-bonuses';
import { BettingBonuses } from './betting-bonuses';
import { BonusCard, BonusHistoryItem } from './bonus-card';
import { PromoCodeForm } from './promo-code-form';

function CurrentBonuses() {
  const { t } = useTranslation();
  const locale = useLocale();
  const bonuses = useBonuses(CURRENT_STATUSES);
  if (bonuses.isPending) return <Spinner label={t('app.loading')} />;
  if (bonuses.isError) return <p className={screens.alert}>{t('bonuses.loadFailed')}</p>;
  if (bonuses.data.items.length === 0) {
    return (
      <p className={screens.notice} data-testid="bonus-none">
        {t('bonuses.none')} <Link to={localizePath(paths.offers, locale)}>{t('bonuses.seeOffers')}</Link>
      </p>
    );
  }
  return (
    <ul className={screens.list} data-testid="bonus-list">
      {bonuses.data.items.map((bonus) => (
        <BonusCard key={bonus.id} bonus={bonus} />
      ))}
    </ul>
  );
}

function FinishedBonuses() {
  const { t } = useTranslation();
  const bonuses = useBonuses(FINISHED_STATUSES);
  if (bonuses.isPending) return <Spinner label={t('app.loading')} />;
  if (bonuses.isError) return <p className={screens.alert}>{t('bonuses.loadFailed')}</p>;
  if (bonuses.data.items.length === 0) return <p className={screens.muted}>{t('bonuses.historyEmpty')}</p>;
  return (
    <ul className={screens.list} data-testid="bonus-history">
      {bonuses.data.items.map((bonus) => (
        <BonusHistoryItem key={bonus.id} bonus={bonus} />
      ))}
    </ul>
  );
}

/** The profile's bonuses tab: the promo-code field, the running bonuses, the sports (betting) bonuses and the finished ones. */
export function PlayerBonuses() {
  const { t } = useTranslation();
  return (
    <>
      <section className={screens.card} aria-labelledby="bonuses-promo">
        <h2 id="bonuses-promo" className={screens.cardTitle}>
          {t('bonuses.promo.title')}
        </h2>
        <PromoCodeForm />
      </section>
      <section className={screens.page} aria-labelledby="bonuses-current">
        <h2 id="bonuses-current" className={screens.cardTitle}>
          {t('bonuses.current')}
        </h2>
        <CurrentBonuses />
      </section>
      <section className={screens.page} aria-labelledby="bonuses-sports" data-testid="betting-bonuses">
        <h2 id="bonuses-sports" className={screens.cardTitle}>
          {t('bonuses.betting.title')}
        </h2>
        <BettingBonuses />
      </section>
      <section className={screens.page} aria-labelledby="bonuses-history">
        <h2 id="bonuses-history" className={screens.cardTitle}>
          {t('bonuses.history')}
        </h2>
        <FinishedBonuses />
      </section>
    </>
  );
}
