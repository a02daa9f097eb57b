import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { PlayerBets } from '@/features/betting';
import { PlayerBonuses } from '@/features/bonuses';
import { PlayerCashbacks } from '@/features/cashbacks';
import { GameHistory } from '@/features/games';
import { ProfileLoyalty } from '@/features/loyalty';
import { useRouteHandle } from '@/lib/route-handle';
import { useSiteConfig } from '@/config/site-config';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';

export const PROFILE_TABS = [
  ['profileSettings', '/profile/settings'],
  ['profileSecurity', '/profile/security'],
  ['profileVerification', '/profile/verification'],
  ['profileResponsibleGame', '/profile/responsible-game'],
  ['profileNotification', '/profile/notification'],
  ['profileBets', '/profile/bets'],
  ['profileLoyalty', '/profile/loyalty'],
  ['profileBonuses', '/profile/bonuses'],
  ['profileCashback', '/profile/cashback'],
] as const;

export type ProfileTab = (typeof PROFILE_TABS)[number][0];

export function ProfileFrame({ tab, children }: { tab: ProfileTab; children: ReactNode }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const route = useRouteHandle()?.name;
  const { switches } = useSiteConfig();
  // SPEC §6 content switches: identity verification and responsible gaming may be hidden.
  const hidden = new Set<string>([
    ...(switches.identityVerification ? [] : ['profileVerification']),
    ...(switches.responsibleGaming ? [] : ['profileResponsibleGame']),
  ]);
  return (
    <div className={screens.page} data-testid={`profile-${tab}`} data-route={route}>
      <h1 className={screens.title}>{t(`pages.${tab}`)}</h1>
      <div className={screens.layout}>
        <nav className={screens.nav} aria-label={t('profile.sections')}>
          {PROFILE_TABS.filter(([key]) => !hidden.has(key)).map(([key, to]) => (
            <NavLink key={key} to={localizePath(to, locale)} className={screens.tab ?? ''} end>
              {t(`pages.${key}`)}
            </NavLink>
          ))}
        </nav>
        <div className={screens.page}>{children}</div>
      </div>
    </div>
  );
}


/**
 * /profile/bets: the sports bets (open and settled, with cash-out), then the game history
 * (casino rounds, with the provably-fair check and the CSV export).
 */
export function BetsPage() {
  return (
    <ProfileFrame tab="profileBets">
      <PlayerBets />
      <GameHistory />
    </ProfileFrame>
  );
}
/** /profile/loyalty: points, level, progress and the character. */
export function LoyaltyPage() {
  return (
    <ProfileFrame tab="profileLoyalty">
      <ProfileLoyalty />
    </ProfileFrame>
  );
}

/** /profile/cashback: the player's cashbacks, to claim or decline. */
export function CashbackPage() {
  return (
    <ProfileFrame tab="profileCashback">
      <PlayerCashbacks />
    </ProfileFrame>
  );
}

/** /profile/bonuses: the promo-code field, the running bonuses and the finished ones. */
export function BonusesPage() {
  return (
    <ProfileFrame tab="profileBonuses">
      <PlayerBonuses />
    </ProfileFrame>
  );
}
