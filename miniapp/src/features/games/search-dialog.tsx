import { lazy, Suspense } from 'react';
import { Spinner } from '@/components/ui/spinner';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { i18n } from '@/lib/i18n';

// The search field and results load when the popup first opens, not with the page that offers it.
const SearchPanel = lazy(async () => ({ default: (await import('./search-panel')).SearchPanel }));

/** The games search popup (SPEC §9 search constants). */
export function openGamesSearch(): number {
  return dialogs.open({
    name: 'games-search',
    label: i18n.t('lobby.search'),
    size: 'big',
    render: ({ close }) => (
      <Suspense fallback={<Spinner label={i18n.t('app.loading')} />}>
        <SearchPanel onOpenGame={() => close({ immediate: true })} />
      </Suspense>
    ),
  });
}
