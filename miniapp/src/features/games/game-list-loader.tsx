import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import type { GameOptions } from './api';

// Pages of other features show the game list through this: the list and its grid load with the
// page that shows them, not with every page that imports the games feature (the header does).
const List = lazy(async () => ({ default: (await import('./game-list')).GameList }));

/** The games `games.get` answers for `options`, a page at a time (see game-list.tsx). */
export function GameList({ options, empty }: { options: GameOptions; empty: string }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={<Spinner label={t('app.loading')} />}>
      <List options={options} empty={empty} />
    </Suspense>
  );
}
