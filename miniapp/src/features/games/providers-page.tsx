import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useRouteHandle } from '@/lib/route-handle';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { gamehallProvidersPath } from '@/config/paths';
import { useProviders } from '@/features/games/api';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';

/** /providers: each provider links into the filtered hall; several can be chosen together. */
export function ProvidersPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const route = useRouteHandle()?.name;
  const { data, isPending } = useProviders();
  const [chosen, setChosen] = useState<string[]>([]);

  return (
    <div className={screens.page} data-testid="providers" data-route={route}>
      <h1 className={screens.title}>{t('pages.providers')}</h1>
      {isPending ? (
        <Spinner label={t('app.loading')} />
      ) : (
        <ul className={screens.list}>
          {data?.map((provider) => (
            <li key={provider.sysname} className={screens.item}>
              <Link to={localizePath(gamehallProvidersPath([provider.sysname]), locale)}>
                <strong>{provider.name}</strong>
              </Link>
              <label className={screens.row}>
                <input
                  type="checkbox"
                  checked={chosen.includes(provider.sysname)}
                  onChange={(event) => {
                    const on = event.target.checked;
                    setChosen((list) => (on ? [...list, provider.sysname] : list.filter((s) => s !== provider.sysname)));
                  }}
                />
                {t('lobby.choose')}
              </label>
              <span className={screens.muted}>{t('lobby.gamesFound', { count: provider.games })}</span>
            </li>
          ))}
        </ul>
      )}
      <div>
        <Button disabled={chosen.length === 0} onClick={() => void navigate(localizePath(gamehallProvidersPath(chosen), locale))}>
          {t('lobby.showChosen', { count: chosen.length })}
        </Button>
      </div>
    </div>
  );
}
