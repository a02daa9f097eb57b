import { SystemPageView } from '@/components/layout/system-page-view';

/** Unknown paths, and content pages (`/{slug}`) while the content service has none to show. */
export function NotFoundPage() {
  return <SystemPageView type="notFound" />;
}
