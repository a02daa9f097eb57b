import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useRouteHandle } from '@/lib/route-handle';
import { openSignIn } from '@/features/auth';
import { Button, buttonClassName } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { depositPath } from '@/config/paths';
import { accountKeys, useAccount, type AccountInfo } from '@/features/account';
import { gamesQueryOptions, gameView, launchGame, LaunchError, type Game, type GameConfig, type Launch, type LaunchMode } from '@/features/games/api';
import { FavouriteButton } from '@/features/games/game-card';
import { atDeviceTimes } from '@/lib/device-clock';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { formatDate, formatMoney } from '@/lib/format';
import { i18n, useLocale } from '@/lib/i18n';
import { localizePath } from '@/lib/i18n/locale-path';
import { isTelegram } from '@/lib/telegram';
import { FairnessPanel } from './fairness-panel';
import { freespinsQueryOptions, useFreespins } from './freespins';
import styles from './game.module.css';

/** SPEC §3 `visibleFullScreen`: everywhere, only inside Telegram, only on the site, or never. */
export function showsFullScreen(config: GameConfig | null, inTelegram: boolean): boolean {
  switch (config?.visibleFullScreen ?? 'all') {
    case 'all':
      return true;
    case 'telegram':
      return inTelegram;
    case 'product':
      return !inTelegram;
    default:
      return false;
  }
}

/**
 * A game session (a launch) takes bets for four hours (`expires_in`). The frame cannot say so — an
 * aggregator's game shows its own error on a refused bet — so the page does: from this long before
 * the end a notice offers to start the game again, and at the end the frame gives way to that
 * offer. The player chooses when: starting again reloads the game, which nothing does by itself
 * mid-round (wins and rollbacks of an ended session are still taken by the wallet).
 */
export const GAME_SESSION_WARNING_MS = 5 * 60_000;

type SessionPhase = 'live' | 'ending' | 'ended';

function phaseAt(now: number, end: number): SessionPhase {
  if (now >= end) return 'ended';
  return now >= end - GAME_SESSION_WARNING_MS ? 'ending' : 'live';
}

/**
 * Where the session of `launch` stands, by the device's clock from when its answer arrived
 * (`launchedAt`, [atDeviceTimes]).
 */
function useSessionPhase(launch: Launch | null, launchedAt: number): SessionPhase {
  const [state, setState] = useState<{ token: string; phase: SessionPhase } | null>(null);
  const token = launch?.token;
  const expiresIn = launch?.expires_in;
  useEffect(() => {
    if (token === undefined || expiresIn === undefined) return undefined;
    const end = launchedAt + expiresIn * 1000;
    const check = () => {
      const phase = phaseAt(Date.now(), end);
      setState((current) => (current?.token === token && current.phase === phase ? current : { token, phase }));
    };
    return atDeviceTimes([end - GAME_SESSION_WARNING_MS, end], check);
  }, [token, expiresIn, launchedAt]);
  return state !== null && state.token === token ? state.phase : 'live';
}

/** The demo-mode popup: what fun money means, and the way to real play. */
function openDemoPopup(onChoose: (mode: LaunchMode) => void, needsDeposit: boolean, depositHref: string) {
  dialogs.open({
    name: 'demo-mode',
    label: i18n.t('gamePage.demoTitle'),
    kind: 'confirm',
    render: ({ close }) => (
      <div className={styles.overlay} style={{ position: 'static' }}>
        <p>{needsDeposit ? i18n.t('gamePage.needDeposit') : i18n.t('gamePage.demoText')}</p>
        <Button
          onClick={() => {
            close({ immediate: true });
            onChoose('demo');
          }}
        >
          {i18n.t('gamePage.playDemo')}
        </Button>
        {needsDeposit ? (
          <a className={buttonClassName('secondary')} href={depositHref} onClick={() => close({ immediate: true })}>
            {i18n.t('gamePage.deposit')}
          </a>
        ) : (
          <Button
            variant="secondary"
            onClick={() => {
              close({ immediate: true });
              onChoose('play');
            }}
          >
            {i18n.t('gamePage.playReal')}
          </Button>
        )}
      </div>
    ),
  });
}

function updateBalance(account: AccountInfo | undefined, amount: string, currency: string): AccountInfo | undefined {
  if (account?.balance_main.currency !== currency) return account;
  return { ...account, balance_main: { amount, currency } };
}

/** The game in its frame; a guest plays demo rounds only (games whose config allows it). */
function GameStage({ game, guest }: { game: Game; guest: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const queryClient = useQueryClient();
  const stage = useRef<HTMLDivElement>(null);
  const [request, setRequest] = useState<{ mode: LaunchMode; attempt: number }>({ mode: guest ? 'demo' : 'play', attempt: 0 });
  const [result, setResult] = useState<{ key: string; launch?: Launch; launchedAt?: number; error?: string } | null>(null);
  const { name } = gameView(game);
  const spins = useFreespins().get(game.sysname);
  const depositHref = localizePath(depositPath(), locale);
  const mode = request.mode;
  const key = `${request.mode}:${String(request.attempt)}`;
  const start = useCallback((next: LaunchMode) => {
    setRequest((current) => ({ mode: next, attempt: current.attempt + 1 }));
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    launchGame(game.sysname, request.mode, controller.signal)
      .then((launch) => {
        setResult({ key, launch, launchedAt: Date.now() });
      })
      .catch((cause: unknown) => {
        if (controller.signal.aborted) return;
        const type = cause instanceof LaunchError ? cause.type : 'UnknownErrorException';
        setResult({ key, error: type });
        if (type === 'UserNeedDepositException' && game.has_demo) openDemoPopup(start, true, depositHref);
      });
    return () => {
      controller.abort();
    };
  }, [game.sysname, game.has_demo, request.mode, key, start, depositHref]);

  const current = result?.key === key ? result : null;
  const launch = current?.launch ?? null;
  const error = current?.error ?? null;
  const session = useSessionPhase(launch, current?.launchedAt ?? 0);
  const restart = (
    <Button
      onClick={() => {
        start(mode);
      }}
    >
      {t('gamePage.restart')}
    </Button>
  );

  // The house games post their balance after every round: the header follows without polling.
  useEffect(() => {
    const listen = (event: MessageEvent<unknown>) => {
      if (event.origin !== window.location.origin) return;
      const data = event.data as { type?: string; balance?: string; currency?: string } | null;
      if (data?.type !== 'croupier:balance' || typeof data.balance !== 'string' || typeof data.currency !== 'string') return;
      if (mode !== 'play') return;
      queryClient.setQueryData<AccountInfo>(accountKeys.info(), (current) => updateBalance(current, data.balance ?? '', data.currency ?? ''));
      // A round may have used a free spin: the count follows.
      void queryClient.invalidateQueries({ queryKey: freespinsQueryOptions().queryKey });
    };
    window.addEventListener('message', listen);
    return () => {
      window.removeEventListener('message', listen);
    };
  }, [mode, queryClient]);

  return (
    <>
      <div className={styles.toolbar}>
        <h1 className={styles.name}>{name}</h1>
        <span className={styles.mode} data-testid="game-mode">
          {mode === 'demo' ? t('gamePage.modeDemo') : t('gamePage.modeReal')}
        </span>
        <FavouriteButton game={game} className={styles.tool ?? ''} />
        {game.has_demo && (
          <button
            type="button"
            className={styles.tool}
            onClick={() => {
              if (guest) openSignIn('registration');
              else if (mode === 'demo') start('play');
              else openDemoPopup(start, false, depositHref);
            }}
          >
            {mode === 'demo' ? t('gamePage.playReal') : t('gamePage.playDemo')}
          </button>
        )}
        {launch && game.provider === 'house' && (
          <button
            type="button"
            className={styles.tool}
            onClick={() =>
              dialogs.open({
                name: 'provably-fair',
                label: t('gamePage.fairTitle'),
                size: 'big',
                render: () => <FairnessPanel token={launch.token} />,
              })
            }
          >
            {t('gamePage.fair')}
          </button>
        )}
        {showsFullScreen(game.config, isTelegram()) && (
          <button type="button" className={styles.tool} onClick={() => void stage.current?.requestFullscreen().catch(() => undefined)}>
            {t('gamePage.fullScreen')}
          </button>
        )}
      </div>
      {mode === 'play' && !guest && spins && (
        <p className={styles.spins} role="status" data-testid="freespins-notice">
          {t('gamePage.freespinsNotice', {
            count: spins.remaining,
            bet: formatMoney(spins.bet, spins.currency, locale),
            date: formatDate(spins.expiresAt),
          })}
        </p>
      )}
      {launch && session === 'ending' && (
        <div className={styles.ending} role="status" data-testid="game-session-ending">
          <p>{t('gamePage.sessionEnding')}</p>
          {restart}
        </div>
      )}
      <div className={styles.stage} ref={stage}>
        {launch && session === 'ended' ? (
          <div className={styles.overlay} role="alert" data-testid="game-session-ended">
            <p>{t('gamePage.sessionEnded')}</p>
            {restart}
          </div>
        ) : launch ? (
          <iframe key={launch.token} className={styles.frame} src={launch.url} title={name} allow="fullscreen; autoplay" allowFullScreen />
        ) : error ? (
          <div className={styles.overlay} role="alert">
            <p>{t(error === 'UserNeedDepositException' ? 'gamePage.needDeposit' : 'gamePage.launchFailed')}</p>
            {error === 'UserNeedDepositException' ? (
              <Link className={buttonClassName('primary')} to={depositHref}>
                {t('gamePage.deposit')}
              </Link>
            ) : (
              <Button onClick={() => { start(mode); }}>{t('gamePage.retry')}</Button>
            )}
          </div>
        ) : (
          <div className={styles.overlay}>
            <Spinner label={t('app.loading')} />
          </div>
        )}
      </div>
    </>
  );
}

/** /game/{sysname} on the game layout. */
export function GamePage() {
  const { t } = useTranslation();
  const { sysname = '' } = useParams();
  const route = useRouteHandle()?.name;
  const account = useAccount();
  const [guestDemo, setGuestDemo] = useState(false);
  const { data, isPending } = useQuery(gamesQueryOptions({ sysnames: [sysname], limit: 1 }));
  const game = data?.items[0];

  let content: ReactNode;
  if (isPending) {
    content = <Spinner label={t('app.loading')} />;
  } else if (!game) {
    content = (
      <div className={styles.overlay} style={{ position: 'static' }}>
        <h1>{t('gamePage.notFound')}</h1>
      </div>
    );
  } else if (account) {
    content = <GameStage game={game} guest={false} />;
  } else if (guestDemo) {
    content = <GameStage game={game} guest />;
  } else {
    const { name, image } = gameView(game);
    content = (
      <div className={styles.overlay} style={{ position: 'static' }}>
        <h1>{name}</h1>
        <img className={styles.cover} src={image} alt="" width={288} height={192} />
        <p>{t('gamePage.signInToPlay')}</p>
        <Button onClick={() => openSignIn('registration')}>{t('lobby.register')}</Button>
        <Button variant="secondary" onClick={() => openSignIn('authorization')}>
          {t('gamePage.signIn')}
        </Button>
        {game.has_demo && game.config?.canPlayDemoAsGuest === true && (
          <Button variant="ghost" onClick={() => { setGuestDemo(true); }}>
            {t('gamePage.playDemo')}
          </Button>
        )}
      </div>
    );
  }
  return (
    <section className={styles.page} data-testid="game-page" data-sysname={game?.sysname ?? sysname} data-route={route}>
      {content}
    </section>
  );
}
