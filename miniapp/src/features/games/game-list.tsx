import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import screens from '@/components/screens.module.css';
import { gameKeys, getGames, type GameOptions } from './api';
import { GameGrid } from './game-grid';

export const GAMEHALL_PAGE_SIZE = 48;

/**
 * The games `games.get` answers for `options`, a page at a time: their count, the grid, and the
 * next page once the end of the list scrolls into view (or on "Show more").
 */
export function GameList({ options, empty }: { options: GameOptions; empty: string }) {
  const { t } = useTranslation();
  const list = useInfiniteQuery({
    queryKey: [...gameKeys.list(options), 'pages'],
    queryFn: ({ pageParam, signal }) => getGames({ ...options, limit: GAMEHALL_PAGE_SIZE, offset: pageParam }, { signal }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? loaded : undefined;
    },
  });
  const games = list.data?.pages.flatMap((page) => page.items) ?? [];
  const total = list.data?.pages[0]?.total ?? 0;

  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return undefined;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <p className={screens.muted} data-testid="gamehall-total">
        {t('lobby.gamesFound', { count: total })}
      </p>
      {list.isPending ? (
        <Spinner label={t('app.loading')} />
      ) : games.length === 0 ? (
        <p className={screens.notice}>{empty}</p>
      ) : (
        <GameGrid games={games} />
      )}
      <div ref={sentinel} />
      {hasNextPage && (
        <Button variant="secondary" disabled={isFetchingNextPage} onClick={() => void fetchNextPage()}>
          {t('lobby.more')}
        </Button>
      )}
    </>
  );
}
