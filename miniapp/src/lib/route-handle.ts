import { useMatches } from 'react-router';
import type { PaymentPageType } from '@/config/system-pages';
import type { Messages } from '@/lib/i18n';

export type PageTitleKey = keyof Messages['pages'];

/** What every page route declares about itself. */
export interface RouteHandle {
  /** The route name (Nuxt style: `cashier-deposit-sysname`), used by the guard and the dialog rules. */
  name: string;
  /** The page title key, for placeholders and the document title. */
  title?: PageTitleKey;
  /** SPEC §2: the game page flag. */
  isGamePage?: boolean;
  payment?: PaymentPageType;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string';
}

/** The handle of the deepest matched page. */
export function useRouteHandle(): RouteHandle | undefined {
  const matches = useMatches();
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle;
  }
  return undefined;
}
