import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button, buttonClassName } from '@/components/ui/button';
import { gamehallCategoryPath, paths } from '@/config/paths';
import { openSignIn } from '@/features/auth';
import { useAccount } from '@/features/account';
import { useCategories } from '@/features/games';
import { GameRow } from '@/features/games';
import { openGamesSearch } from '@/features/games';
import { GeneralInfoPanel } from '@/features/metadata';
import screens from '@/components/screens.module.css';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { bannersAt, useAuthBanner, useBanners, useMenuBanner, type Banner } from './content';
import styles from './home.module.css';

/** Content links are site paths (localized) or absolute addresses (kept). */
function useContentHref() {
  const locale = useLocale();
  return (to: string) => (/^https?:\/\//.test(to) ? to : localizePath(to, locale));
}

function BannerSlide({ banner }: { banner: Banner }) {
  const href = useContentHref();
  return (
    <article className={styles.banner} data-testid="home-banner">
      <picture>
        {banner.image && <source media="(min-width: 768px)" srcSet={banner.image} />}
        <img className={styles.bannerImage} src={banner.imageMobile ?? banner.image ?? ''} alt="" width={360} height={360} />
      </picture>
      <div className={styles.bannerText}>
        {banner.title && <h2 className={styles.bannerTitle}>{banner.title}</h2>}
        {banner.subtitle && <p className={styles.bannerSubtitle}>{banner.subtitle}</p>}
        {banner.buttonUrl && banner.buttonTitle && (
          <Link to={href(banner.buttonUrl)} className={buttonClassName('primary')}>
            {banner.buttonTitle}
          </Link>
        )}
      </div>
    </article>
  );
}

function Banners() {
  const { t } = useTranslation();
  const { data } = useBanners();
  const banners = bannersAt(data ?? [], 'home-top');
  if (banners.length === 0) return null;
  return (
    <section className={styles.banners} aria-label={t('lobby.banners')}>
      {banners.map((banner) => (
        <BannerSlide key={banner.id} banner={banner} />
      ))}
    </section>
  );
}

/** SPEC §3 auth banner: for guests, the welcome offer with the way to register. */
function AuthBanner() {
  const { t } = useTranslation();
  const { data } = useAuthBanner();
  if (!data?.isExist) return null;
  return (
    <section className={styles.promo} data-testid="auth-banner" aria-label={data.label ?? t('lobby.welcome')}>
      {data.image_735_240 && <img className={styles.promoImage} src={data.image_735_240} alt="" width={320} height={105} />}
      <div className={screens.page}>
        <p className={screens.muted}>{data.label}</p>
        <p className={styles.promoValue}>{data.value}</p>
        <p className={screens.subtitle}>{data.addition}</p>
        <div>
          <Button onClick={() => openSignIn('registration')}>{t('lobby.register')}</Button>
        </div>
      </div>
    </section>
  );
}

/** SPEC §3/§6 menu banner: guests see the public variant opening registration; players its slug or the offers. */
function MenuBanner({ signedIn }: { signedIn: boolean }) {
  const href = useContentHref();
  const { data } = useMenuBanner();
  if (!data?.isExist) return null;
  const title = signedIn ? data.title : data.publicTitle;
  const subtitle = signedIn ? data.subtitle : data.publicSubtitle;
  const button = signedIn ? data.buttonTitle : data.publicButtonTitle;
  const image = signedIn ? data.image : data.publicImage;
  return (
    <section className={styles.promo} data-testid="menu-banner" aria-label={title ?? ''}>
      {image && <img className={styles.promoImage} src={image} alt="" width={320} height={180} />}
      <div className={screens.page}>
        <h2 className={screens.cardTitle}>{title}</h2>
        <p className={screens.subtitle}>{subtitle}</p>
        <div>
          {signedIn ? (
            <Link className={buttonClassName('secondary')} to={href(data.buttonSlug?.trim() ? data.buttonSlug : paths.offers)}>
              {button}
            </Link>
          ) : (
            <Button variant="secondary" onClick={() => openSignIn('registration')}>
              {button}
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const account = useAccount();
  const { data: categories } = useCategories();
  const rows = (categories ?? []).filter((category) => category.games > 0).slice(0, 6);

  return (
    <div className={screens.page}>
      <section className={styles.hero}>
        <h1 className={screens.title}>{t('home.title')}</h1>
        <p className={screens.subtitle}>{t('home.subtitle')}</p>
      </section>
      <Banners />
      <div className={styles.toolbar}>
        <Link to={localizePath(paths.gamehall, locale)} className={buttonClassName('primary')}>
          {t('lobby.allGames')}
        </Link>
        <Button variant="secondary" onClick={openGamesSearch}>
          {t('lobby.search')}
        </Button>
        <Link to={localizePath(paths.providers, locale)} className={buttonClassName('ghost')}>
          {t('pages.providers')}
        </Link>
      </div>
      {!account && <AuthBanner />}
      {rows.map((category) => (
        <GameRow
          key={category.slug}
          id={category.slug}
          title={category.name}
          options={{ category: category.slug, limit: 12 }}
          moreTo={gamehallCategoryPath(category.slug)}
        />
      ))}
      <MenuBanner signedIn={account !== undefined} />
      <GeneralInfoPanel />
    </div>
  );
}
