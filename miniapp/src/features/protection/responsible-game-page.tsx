import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { useRouteHandle } from '@/lib/route-handle';
import { BreakSection, LimitsSection, RealitySection } from './responsible-tools';

/**
 * /responsible-game: what the site offers to keep play in control and where to find help, with
 * the same tools as the profile's tab (the route is for signed-in players, SPEC §4's guard).
 */
export function ResponsibleGamePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const route = useRouteHandle()?.name;
  return (
    <div className={screens.page} data-testid="responsible-game" data-route={route}>
      <h1 className={screens.title}>{t('pages.responsibleGame')}</h1>
      <section className={screens.card}>
        <p>{t('responsible.publicIntro')}</p>
        <p className={screens.muted}>{t('responsible.help')}</p>
        <p>
          <Link to={localizePath('/support', locale)}>{t('pages.support')}</Link>
        </p>
      </section>
      <LimitsSection />
      <BreakSection />
      <RealitySection />
    </div>
  );
}
