import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSwitch } from '@/components/layout/language-switch';
import { Icon } from '@/components/ui/icon';
import { paths } from '@/config/paths';
import { useSiteConfig } from '@/config/site-config';
import { useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { exitFullscreen, protectGame, requestFullscreen, useTelegram } from '@/lib/telegram';
import { fullscreenMode } from './game-fullscreen';
import styles from './layouts.module.css';

/**
 * Inside Telegram while a game is open: closing asks first, vertical swipes stay with the game,
 * and full screen is requested per the game config. A refusal leaves the ordinary layout, which
 * fills Telegram's viewport between its safe areas.
 */
function useTelegramGameMode(wantsFullscreen: boolean, active: boolean) {
  useEffect(() => {
    if (!active) return;
    const restore = protectGame();
    let entered = false;
    let left = false;
    if (wantsFullscreen) {
      void requestFullscreen().then((ok) => {
        entered = ok;
        if (ok && left) void exitFullscreen();
      });
    }
    return () => {
      left = true;
      restore();
      if (entered) void exitFullscreen();
    };
  }, [active, wantsFullscreen]);
}

function useBrowserFullscreen() {
  const [isFullscreen, setFullscreen] = useState(() => document.fullscreenElement !== null);
  useEffect(() => {
    const update = () => {
      setFullscreen(document.fullscreenElement !== null);
    };
    document.addEventListener('fullscreenchange', update);
    return () => {
      document.removeEventListener('fullscreenchange', update);
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    };
  }, []);
  const toggle = () => {
    const action = document.fullscreenElement ? document.exitFullscreen() : document.documentElement.requestFullscreen();
    action.catch((error: unknown) => {
      console.info('full screen refused', error);
    });
  };
  return { isFullscreen, toggle, supported: document.fullscreenEnabled };
}

/** SPEC §2 game layout: a slim bar back to the game hall, the game filling the rest. */
export function GameLayout() {
  const { t } = useTranslation();
  const locale = useLocale();
  const telegram = useTelegram();
  const { games } = useSiteConfig();
  const mode = fullscreenMode(games.visibleFullScreen, telegram.active);
  useTelegramGameMode(mode === 'telegram', telegram.active);
  const browser = useBrowserFullscreen();
  const fullscreen = telegram.active ? telegram.isFullscreen : browser.isFullscreen;

  return (
    <div className={styles.gameShell} data-layout="game" data-fullscreen={fullscreen ? 'true' : 'false'}>
      <header className={styles.gameBar}>
        <Link to={localizePath(paths.gamehall, locale)} className={styles.gameBack}>
          <Icon name="cards" size={18} />
          {t('game.back')}
        </Link>
        {mode === 'browser' && browser.supported && (
          <button type="button" className={styles.gameBack} onClick={browser.toggle} aria-pressed={browser.isFullscreen}>
            <Icon name="window" size={18} />
            {t(browser.isFullscreen ? 'telegram.exitFullScreen' : 'game.fullScreen')}
          </button>
        )}
        <LanguageSwitch />
      </header>
      <main className={styles.gameMain}>
        <Outlet />
      </main>
    </div>
  );
}
