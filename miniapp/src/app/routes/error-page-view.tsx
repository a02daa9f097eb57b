import type { ReactNode } from 'react';
import { SYSTEM_PAGES } from '@/config/system-pages';
import type { ErrorPage } from '@/lib/api/error-pages';
import { DefaultFrame } from '../layouts/default-layout';
import { EmptyFrame } from '../layouts/empty-layout';
import { SystemPageView } from '@/components/layout/system-page-view';

/** SPEC §2: maintenance and forbidden show on the empty layout, the other pages on the default one. */
export function SystemPageFrame({ layout, children }: { layout: 'default' | 'empty'; children: ReactNode }) {
  return layout === 'empty' ? <EmptyFrame>{children}</EmptyFrame> : <DefaultFrame>{children}</DefaultFrame>;
}

/** An error page (SPEC §4, §8) in its own layout, in place of whatever page failed. */
export function ErrorPageView({ page }: { page: ErrorPage }) {
  return (
    <SystemPageFrame layout={SYSTEM_PAGES[page.type].layout}>
      <SystemPageView type={page.type} />
    </SystemPageFrame>
  );
}
