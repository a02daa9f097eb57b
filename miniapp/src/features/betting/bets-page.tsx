import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { useRouteHandle } from '@/lib/route-handle';
import { BETS_FILTERS, type BetsFilter } from './api/bets';
import { PlayerBets } from './bets-list';

/** /bets/{anything}: the player's sports bets; /bets/open, /bets/settled and /bets/all open on that list. */
export function BetsPage() {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  const splat = (useParams()['*'] ?? '').split('/')[0]?.toLowerCase() ?? '';
  const initial: BetsFilter = BETS_FILTERS.find((filter) => filter === splat) ?? 'open';
  return (
    <div className={screens.page} data-testid="bets-page" data-route={route}>
      <h1 className={screens.title}>{t('pages.bets')}</h1>
      <PlayerBets key={initial} initial={initial} />
    </div>
  );
}
