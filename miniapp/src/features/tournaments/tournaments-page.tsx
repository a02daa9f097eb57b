import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { useRouteHandle } from '@/lib/route-handle';
import { LISTED_STATUSES, useTournaments, type ListedStatus } from './api/get-tournaments';
import { TournamentCard, TournamentCardSkeleton } from './tournament-card';
import styles from './tournaments.module.css';

function isListedStatus(value: string | null): value is ListedStatus {
  return LISTED_STATUSES.some((status) => status === value);
}

const SKELETON_CARDS = 3;

/** `/tournaments`: running, upcoming and finished tournaments (`?status=`, running first). */
export function TournamentsPage() {
  const { t } = useTranslation();
  const route = useRouteHandle()?.name;
  const [params, setParams] = useSearchParams();
  const requested = params.get('status');
  const status: ListedStatus = isListedStatus(requested) ? requested : 'running';
  const list = useTournaments(status);

  const choose = (next: ListedStatus) => {
    const search = new URLSearchParams(params);
    if (next === 'running') search.delete('status');
    else search.set('status', next);
    setParams(search, { replace: true });
  };

  return (
    <div className={screens.page} data-testid="tournaments-page" data-route={route}>
      <h1 className={screens.title}>{t('pages.tournaments')}</h1>
      <nav className={screens.tabs} aria-label={t('tournaments.sections')}>
        {LISTED_STATUSES.map((option) => (
          <button
            key={option}
            type="button"
            className={screens.tab}
            aria-pressed={option === status}
            data-testid={`tournaments-tab-${option}`}
            onClick={() => {
              choose(option);
            }}
          >
            {t(`tournaments.tabs.${option}`)}
          </button>
        ))}
      </nav>
      {list.isError ? (
        <p className={screens.alert}>{t('tournaments.loadFailed')}</p>
      ) : list.data?.items.length === 0 ? (
        <p className={screens.notice} data-testid="tournaments-empty">
          {t(`tournaments.empty.${status}`)}
        </p>
      ) : (
        <ul className={styles.grid} data-testid="tournaments-list" aria-busy={list.isPending}>
          {list.data
            ? list.data.items.map((tournament) => <TournamentCard key={tournament.id} tournament={tournament} />)
            : Array.from({ length: SKELETON_CARDS }, (_, index) => <TournamentCardSkeleton key={index} />)}
        </ul>
      )}
    </div>
  );
}
