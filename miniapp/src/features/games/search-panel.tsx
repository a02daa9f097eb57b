// The games search popup's content: its own chunk, loaded when the popup first opens.
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/text-field';
import { gamesQueryOptions } from './api';
import { GameCard, GameCardSkeleton } from './game-card';
import { debounce, SEARCH_RESULTS_LIMIT, SEARCH_SUGGESTIONS_LIMIT, searchTerm } from './search';
import styles from './games.module.css';

/** The games search: a field, then the matching games (the popular ones before a term). */
export function SearchPanel({ onOpenGame }: { onOpenGame: () => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [term, setTerm] = useState<string | null>(null);
  const settle = useMemo(
    () =>
      debounce((value: string) => {
        setTerm(searchTerm(value));
      }),
    [],
  );
  useEffect(() => () => { settle.cancel(); }, [settle]);

  const options = term
    ? { search: term, limit: SEARCH_RESULTS_LIMIT }
    : { limit: SEARCH_SUGGESTIONS_LIMIT, sort: 'popular' as const };
  const { data, isPending } = useQuery(gamesQueryOptions(options));

  return (
    <div className={styles.search}>
      <TextField
        label={t('lobby.searchLabel')}
        name="search"
        type="search"
        value={input}
        autoFocus
        autoComplete="off"
        onValueChange={(value) => {
          setInput(value);
          settle(value);
        }}
      />
      <p className={styles.cardMeta} aria-live="polite">
        {term ? t('lobby.searchResults', { count: data?.total ?? 0 }) : t('lobby.searchPopular')}
      </p>
      <div className={styles.searchList} data-testid="search-results">
        {isPending
          ? Array.from({ length: 6 }, (_, i) => <GameCardSkeleton key={i} />)
          : data?.items.map((game) => <GameCard key={game.sysname} game={game} onOpen={onOpenGame} />)}
      </div>
      {!isPending && data?.items.length === 0 && <p className={styles.empty}>{t('lobby.nothingFound')}</p>}
    </div>
  );
}
