import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import screens from '@/components/screens.module.css';
import { paths, routeId } from '@/config/paths';
import { ApiError } from '@/lib/api/client';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { useTournament } from './api/get-tournaments';

/** The frame every state of a tournament's pages shares: the title and the route name. */
export function TournamentFrame({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-testid={testId} data-route={route}>
      <h1 className={screens.title}>{title}</h1>
      {children}
    </div>
  );
}

/** The tournament of the address (`:id`); `missing` when there is none by that id. */
export function useRouteTournament() {
  const { id } = useParams();
  const tournamentId = routeId(id);
  const query = useTournament(tournamentId);
  const missing =
    Number.isNaN(tournamentId) ||
    (query.error instanceof ApiError && (query.error.status === 404 || query.error.fieldErrors.id !== undefined));
  return { query, missing };
}

/** A tournament page before its tournament is there: `loading` while it loads, else why not. */
export function TournamentAbsent({ testId, missing, failed, loading }: { testId: string; missing: boolean; failed: boolean; loading: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <TournamentFrame title={t('pages.tournaments')} testId={testId}>
      {missing ? (
        <p className={screens.notice} data-testid="tournament-not-found">
          {t('tournaments.notFound')} <Link to={localizePath(paths.tournaments, locale)}>{t('tournaments.all')}</Link>
        </p>
      ) : failed ? (
        <p className={screens.alert}>{t('tournaments.loadFailed')}</p>
      ) : (
        loading
      )}
    </TournamentFrame>
  );
}
