import { useEffect, useRef, useState } from 'react';
import type { Game } from './api';
import { GameCard } from './game-card';
import { alignToColumns, MAX_RENDERED_ITEMS, renderWindow, rowsFor, type ItemWindow } from './window';
import styles from './games.module.css';

// Columns per the grid's CSS breakpoints (games.module.css).
function columnsFor(width: number): number {
  if (width >= 1280) return 6;
  if (width >= 768) return 4;
  return 2;
}

function useColumns(): number {
  const [columns, setColumns] = useState(() => columnsFor(window.innerWidth));
  useEffect(() => {
    const update = () => {
      setColumns(columnsFor(window.innerWidth));
    };
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('resize', update);
    };
  }, []);
  return columns;
}

const GAP_PX = 12;

/**
 * The game hall's list: whole up to 1000 games, then only the window around the screen (SPEC §9)
 * with spacers standing in for the rows above and below.
 */
export function GameGrid({ games }: { games: readonly Game[] }) {
  const columns = useColumns();
  const container = useRef<HTMLDivElement>(null);
  const [view, setView] = useState<ItemWindow & { rowHeight: number }>({ start: 0, end: MAX_RENDERED_ITEMS, rowHeight: 220 });
  const windowed = games.length > MAX_RENDERED_ITEMS;

  useEffect(() => {
    if (!windowed) return undefined;
    const update = () => {
      const element = container.current;
      if (!element) return;
      const card = element.querySelector<HTMLElement>('[data-testid="game-card"]');
      const rowHeight = card ? card.offsetHeight + GAP_PX : 220;
      const top = element.getBoundingClientRect().top;
      const firstRow = Math.max(0, Math.floor(-top / rowHeight));
      const lastRow = Math.max(firstRow, Math.floor((window.innerHeight - top) / rowHeight));
      const next = alignToColumns(renderWindow(games.length, firstRow * columns, (lastRow + 1) * columns - 1), columns);
      setView((current) =>
        current.start === next.start && current.end === next.end && current.rowHeight === rowHeight ? current : { ...next, rowHeight },
      );
    };
    update();
    window.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, [games.length, columns, windowed]);

  const start = windowed ? Math.min(view.start, games.length) : 0;
  const end = windowed ? Math.min(view.end, games.length) : games.length;
  const before = windowed ? (start / columns) * view.rowHeight : 0;
  const after = windowed ? (rowsFor(games.length, columns) - rowsFor(end, columns)) * view.rowHeight : 0;

  return (
    <div ref={container} data-testid="game-grid" data-rendered={end - start}>
      {before > 0 && <div style={{ height: before }} aria-hidden="true" />}
      <div className={styles.grid} style={{ ['--columns' as string]: columns }}>
        {games.slice(start, end).map((game) => (
          <GameCard key={game.sysname} game={game} />
        ))}
      </div>
      {after > 0 && <div style={{ height: after }} aria-hidden="true" />}
    </div>
  );
}
