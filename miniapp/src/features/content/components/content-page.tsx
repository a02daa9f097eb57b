import { useEffect, useMemo, type MouseEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageLoader } from '@/components/layout/page-loader';
import { SystemPage } from '@/components/layout/system-page';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useTranslation } from 'react-i18next';
import { useContentPage } from '../api/pages';
import { sanitizeHtml } from '../sanitize';
import styles from './content-page.module.css';

/** SPEC §2 `/{slug}`: a generic page of the content service; an unknown slug is the 404 page. */
export function ContentPage() {
  const { slug = '' } = useParams();
  const { data: page, isPending, isError } = useContentPage(slug);
  const locale = useLocale();
  const navigate = useNavigate();
  const { t } = useTranslation();
  const html = useMemo(() => (page ? sanitizeHtml(page.content) : ''), [page]);

  useEffect(() => {
    if (page) document.title = `${page.title} — ${t('app.name')}`;
  }, [page, t]);

  if (isPending) return <PageLoader />;
  if (isError || !page) {
    return (
      <SystemPage
        icon="compass"
        header={t('systemPages.notFound.header')}
        description={t('systemPages.notFound.description')}
        testId="system-page-notFound"
      />
    );
  }

  // Links to pages of this site stay in the app instead of reloading it.
  const onClick = (event: MouseEvent<HTMLDivElement>) => {
    const anchor = (event.target as HTMLElement).closest('a');
    const href = anchor?.getAttribute('href');
    if (!anchor || !href || anchor.target === '_blank' || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (href.startsWith('/') && !href.startsWith('//')) {
      event.preventDefault();
      void navigate(localizePath(href, locale));
    }
  };

  return (
    <article className={styles.page} data-testid="content-page" data-slug={page.slug}>
      {page.cover && <img className={styles.cover} src={page.cover} alt="" />}
      {/* The HTML is sanitized above. */}
      <div className={styles.body} onClick={onClick} dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
