import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';

const MARKED = /^([\s\S]*?)<terms>([\s\S]*?)<\/terms>([\s\S]*)$/;

/** A content terms label cut around its `<terms>…</terms>` part; null when it marks none. */
export function splitTermsLabel(label: string): { before: string; link: string; after: string } | null {
  const match = MARKED.exec(label);
  if (!match) return null;
  const [, before = '', link = '', after = ''] = match;
  return { before, link, after };
}

/**
 * The registration terms checkbox text: the content's label (SPEC §3 auth config "terms", in
 * the page's language) or else the translated default, with the terms page linked.
 */
export function TermsLabel() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { auth } = useSiteConfig();
  const to = localizePath(auth.termsUrl, locale);

  if (auth.termsLabel === null) {
    return <Trans i18nKey="auth.registration.terms" components={{ terms: <Link to={to} target="_blank" rel="noopener" /> }} />;
  }
  const parts = splitTermsLabel(auth.termsLabel);
  const link = (text: string) => (
    <Link to={to} target="_blank" rel="noopener">
      {text}
    </Link>
  );
  if (parts) {
    return (
      <>
        {parts.before}
        {link(parts.link)}
        {parts.after}
      </>
    );
  }
  // A label that marks no link still leads to the terms.
  return (
    <>
      {auth.termsLabel} ({link(t('auth.registration.termsLink'))})
    </>
  );
}
