import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { Button, buttonClassName } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { depositPath, paths } from '@/config/paths';
import { menuItemText, useSiteConfig } from '@/config/site-config';
import { useAccount, useAccountInfo, type AccountInfo } from '@/features/account/api/get-account-info';
import { useSession } from '@/features/auth/use-session';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { openSignIn } from '@/features/auth/sign-in-dialogs';
import styles from './site-header.module.css';

function BalanceDetail({ account }: { account: AccountInfo }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const rows = [
    ['main', account.balance_main],
    ['bonus', account.balance_bonus],
    ['bettingBonus', account.balance_betting_bonus],
  ] as const;
  return (
    <dl className={styles.balances}>
      {rows.map(([key, money]) => (
        <div key={key} className={styles.balanceRow}>
          <dt>{t(`header.balance.${key}`)}</dt>
          <dd>{formatMoney(money.amount, money.currency, locale)}</dd>
        </div>
      ))}
    </dl>
  );
}

function ProfileMenu({ account }: { account: AccountInfo }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { cashier } = useSiteConfig();
  const { signOut } = useSession();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const container = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!container.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        toggle.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const links = [
    ['profile', paths.profileSettings],
    ['security', paths.profileSecurity],
    ['history', paths.cashierHistory],
    ['withdraw', paths.cashierWithdraw],
  ] as const;

  return (
    <div ref={container} className={styles.menuContainer}>
      <button
        ref={toggle}
        type="button"
        className={styles.avatar}
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={t('header.profileMenu')}
        onClick={() => {
          setOpen((current) => !current);
        }}
      >
        <Icon name="user" />
      </button>
      {open && (
        <div id={menuId} className={styles.menu}>
          <p className={styles.menuLogin}>{account.fakename ?? account.login}</p>
          {cashier.balanceDetail === 'header-profile-menu' && <BalanceDetail account={account} />}
          <ul className={styles.menuList}>
            {links.map(([key, to]) => (
              <li key={key}>
                <Link
                  to={localizePath(to, locale)}
                  className={styles.menuLink}
                  onClick={() => {
                    setOpen(false);
                  }}
                >
                  {t(`header.menu.${key}`)}
                </Link>
              </li>
            ))}
          </ul>
          <Button
            variant="secondary"
            fullWidth
            onClick={() => {
              setOpen(false);
              void signOut('user');
            }}
          >
            <Icon name="logout" size={18} />
            {t('header.logout')}
          </Button>
        </div>
      )}
    </div>
  );
}

function AccountArea() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { cashier } = useSiteConfig();
  const { isPending } = useAccountInfo();
  const account = useAccount();

  // Reserve the space while the account loads, so nothing shifts when it arrives.
  if (isPending) return <div className={styles.accountPlaceholder} aria-hidden="true" />;

  if (!account) {
    return (
      <div className={styles.account}>
        <Button
          variant="secondary"
          className={styles.compact}
          onClick={() => {
            openSignIn('authorization');
          }}
        >
          {t('header.signIn')}
        </Button>
        <Button
          className={styles.compact}
          onClick={() => {
            openSignIn('registration');
          }}
        >
          {t('header.register')}
        </Button>
      </div>
    );
  }

  const balance = formatMoney(account.balance_main.amount, account.balance_main.currency, locale);
  return (
    <div className={styles.account}>
      <Link
        to={localizePath(depositPath(), locale)}
        className={styles.balance}
        title={cashier.balanceDetail === 'header-cashier' ? undefined : t('header.balance.main')}
        data-testid="header-balance"
      >
        <Icon name="wallet" size={18} />
        <span className={styles.balanceAmount}>{balance}</span>
        <span className={buttonClassName('primary', false, styles.depositChip)}>{t('header.deposit')}</span>
      </Link>
      <ProfileMenu account={account} />
    </div>
  );
}

/** SPEC §3 site config "logos": the content's logo (and its phone variant), else the built-in mark and name. */
function Brand() {
  const { t } = useTranslation();
  const { logo, logoMobile } = useSiteConfig();
  const desktop = logo ?? logoMobile;
  if (desktop) {
    // The link around it carries the name, so the image itself is decorative.
    return (
      <picture className={styles.logoPicture}>
        {logoMobile && logoMobile !== desktop && <source media="(max-width: 767px)" srcSet={logoMobile} />}
        <img src={desktop} alt="" className={styles.logoImage} />
      </picture>
    );
  }
  return (
    <>
      <span className={styles.logo} aria-hidden="true">
        <Icon name="spade" size={22} />
      </span>
      <span className={styles.brandText}>
        <span className={styles.name}>{t('app.name')}</span>
        <span className={styles.tagline}>{t('app.tagline')}</span>
      </span>
    </>
  );
}

export function SiteHeader() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { common } = useSiteConfig();

  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link to={localizePath(paths.home, locale)} className={styles.brand} aria-label={t('header.home')}>
          <Brand />
        </Link>
        <nav className={styles.nav} aria-label={t('header.mainMenu')}>
          {common.menu.map((item) => (
            <NavLink key={item.to} to={localizePath(item.to, locale)} className={() => styles.navLink}>
              {menuItemText(item, t)}
            </NavLink>
          ))}
        </nav>
        <div className={styles.end}>
          <LanguageSwitch />
          <AccountArea />
        </div>
      </div>
    </header>
  );
}
