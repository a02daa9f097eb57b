import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Spinner } from '@/components/ui/spinner';
import { tournamentPath } from '@/config/paths';
import { GameList, type GameOptions } from '@/features/games';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { TournamentAbsent, TournamentFrame, useRouteTournament } from './tournament-frame';

/** `/tournaments/{id}/gamehall`: the game hall narrowed to the tournament's qualifying games. */
export function TournamentGamehallPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { query, missing } = useRouteTournament();
  const tournament = query.data;
  if (!tournament) {
    return <TournamentAbsent testId="tournament-gamehall" missing={missing} failed={query.isError} loading={<Spinner label={t('app.loading')} />} />;
  }
  // No sysnames: every game qualifies, so the whole hall is listed.
  const options: GameOptions = tournament.game_sysnames.length > 0 ? { sysnames: tournament.game_sysnames } : {};
  return (
    <TournamentFrame title={t('tournaments.gamehallTitle', { title: tournament.title })} testId="tournament-gamehall">
      <p>
        <Link to={localizePath(tournamentPath(tournament.id), locale)} data-testid="tournament-back">
          {t('tournaments.back')}
        </Link>
      </p>
      <GameList options={options} empty={t('lobby.nothingFound')} />
    </TournamentFrame>
  );
}
