import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useRouteHandle } from '@/lib/route-handle';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useAccount } from '@/features/account';
import { GAME_TYPES, useCategories, useProviders, type GameOptions, type GameType } from '@/features/games/api';
import { GameList } from '@/features/games/game-list';
import { openGamesSearch } from '@/features/games/search-dialog';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';

function isGameType(value: string | null): value is GameType {
  return GAME_TYPES.some((type) => type === value);
}

/** /gamehall with `category` or comma-joined `providers`, `type` and `favourites=1`. */
export function GamehallPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useAccount();
  const route = useRouteHandle()?.name;
  const [params, setParams] = useSearchParams();
  const category = params.get('category') ?? '';
  const providers = params.get('providers') ?? '';
  const typeParam = params.get('type');
  const type: GameType = isGameType(typeParam) ? typeParam : 'all';
  const favourites = params.get('favourites') === '1' && account !== undefined;
  const { data: categories } = useCategories();
  const { data: providerList } = useProviders();

  const options: GameOptions = { category, providers, type, favourites };

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value === null || value === '') next.delete(key);
      else next.set(key, value);
    }
    setParams(next, { replace: true });
  };

  const categoryName = categories?.find((c) => c.slug === category)?.name;
  const providerNames = providers
    .split(',')
    .filter(Boolean)
    .map((sysname) => providerList?.find((p) => p.sysname === sysname)?.name ?? sysname);
  const heading = categoryName ?? (providerNames.length > 0 ? providerNames.join(', ') : t('pages.gamehall'));

  return (
    <div className={screens.page} data-testid="gamehall" data-route={route}>
      <div className={screens.row}>
        <h1 className={screens.title}>{heading}</h1>
        <Button variant="secondary" onClick={openGamesSearch}>
          {t('lobby.search')}
        </Button>
      </div>
      <nav className={screens.tabs} aria-label={t('lobby.categories')}>
        <button type="button" className={screens.tab} aria-pressed={category === '' && !favourites} onClick={() => { update({ category: null, favourites: null }); }}>
          {t('lobby.allGames')}
        </button>
        {account && (
          <button type="button" className={screens.tab} aria-pressed={favourites} onClick={() => { update({ favourites: favourites ? null : '1' }); }}>
            {t('lobby.favourites')}
          </button>
        )}
        {categories?.map((c) => (
          <button key={c.slug} type="button" className={screens.tab} aria-pressed={c.slug === category} onClick={() => { update({ category: c.slug, providers: null }); }}>
            {c.name}
          </button>
        ))}
      </nav>
      <div className={screens.chips} role="group" aria-label={t('lobby.types')}>
        {GAME_TYPES.map((gameType) => (
          <button key={gameType} type="button" className={screens.chip} aria-pressed={gameType === type} onClick={() => { update({ type: gameType === 'all' ? null : gameType }); }}>
            {t(`lobby.type.${gameType}`)}
          </button>
        ))}
        {providers && (
          <Link className={screens.chip} to={localizePath(paths.providers, locale)}>
            {t('lobby.changeProviders')}
          </Link>
        )}
      </div>
      <GameList options={options} empty={favourites ? t('lobby.noFavourites') : t('lobby.nothingFound')} />
    </div>
  );
}
