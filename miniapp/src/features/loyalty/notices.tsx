// Loyalty notices (SPEC §4, §9): fetched on the player's first interaction and on every path
// change; each shows `delayMs` (300) after its fetch for `durationMs` (5 s) with a short chime at
// `volume` (0.5). The server answers each notice once. Test id: loyalty-notice.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useSiteConfig } from '@/config/site-config';
import { useAccount } from '@/features/account';
import { LOYALTY_NOTICE_DEFAULTS, useLoyaltyContent } from '@/features/content';
import { formatMoney } from '@/lib/format';
import { useLocale } from '@/lib/i18n';
import { getLoyaltyNotices, type LoyaltyNotice } from './api/loyalty';
import styles from './loyalty.module.css';

type AudioContextClass = typeof AudioContext;

/** A short two-note chime; any failure (no audio, autoplay refused) is ignored. */
export function chime(volume: number): void {
  try {
    const audio = window as unknown as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass };
    const Context = audio.AudioContext ?? audio.webkitAudioContext;
    if (!Context || volume <= 0) return;
    const context = new Context();
    const gain = context.createGain();
    gain.gain.value = volume;
    gain.connect(context.destination);
    [880, 1320].forEach((frequency, i) => {
      const tone = context.createOscillator();
      tone.frequency.value = frequency;
      tone.connect(gain);
      tone.start(context.currentTime + i * 0.12);
      tone.stop(context.currentTime + i * 0.12 + 0.1);
    });
    window.setTimeout(() => void context.close().catch(() => undefined), 600);
  } catch {
    // Sound is a nicety.
  }
}

interface Shown {
  notice: LoyaltyNotice;
  key: string;
}

/** The notices' host: mounted once for the whole app. */
export function LoyaltyNotices() {
  const account = useAccount();
  const content = useLoyaltyContent();
  const { pathname } = useLocation();
  const [shown, setShown] = useState<readonly Shown[]>([]);
  const [interacted, setInteracted] = useState(false);
  const timers = useRef<number[]>([]);
  const timing = content.data?.notification ?? LOYALTY_NOTICE_DEFAULTS;
  const timingRef = useRef(timing);
  useEffect(() => {
    timingRef.current = timing;
  }, [timing]);
  const { switches } = useSiteConfig();
  const signedIn = account !== undefined && switches.loyalty;

  useEffect(() => {
    if (interacted) return undefined;
    const first = () => {
      setInteracted(true);
    };
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    for (const e of events) window.addEventListener(e, first, { once: true, passive: true, capture: true });
    return () => {
      for (const e of events) window.removeEventListener(e, first, { capture: true });
    };
  }, [interacted]);

  const fetchNotices = useCallback(async () => {
    let items: LoyaltyNotice[];
    try {
      items = (await getLoyaltyNotices()).items;
    } catch {
      return;
    }
    const { delayMs, durationMs, volume } = timingRef.current;
    items.forEach((notice, i) => {
      const key = `${notice.id}-${Date.now()}`;
      timers.current.push(
        window.setTimeout(() => {
          setShown((list) => [...list, { notice, key }]);
          if (i === 0) chime(volume);
          timers.current.push(
            window.setTimeout(() => {
              setShown((list) => list.filter((s) => s.key !== key));
            }, durationMs),
          );
        }, delayMs),
      );
    });
  }, []);

  // The first interaction, then every path change, while signed in.
  useEffect(() => {
    if (signedIn && interacted) void fetchNotices();
  }, [signedIn, interacted, pathname, fetchNotices]);

  useEffect(
    () => () => {
      for (const t of timers.current) window.clearTimeout(t);
    },
    [],
  );
  if (!signedIn || shown.length === 0) return null;
  return (
    <div className={styles.notices} aria-live="polite">
      {shown.map(({ notice, key }) => (
        <NoticeCard key={key} notice={notice} />
      ))}
    </div>
  );
}

function NoticeCard({ notice }: { notice: LoyaltyNotice }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const amount =
    notice.amount === null
      ? null
      : notice.amountType === 'points' || notice.amountType === null
        ? t('loyalty.noticePoints', { count: notice.amount })
        : formatMoney(String(notice.amount), notice.amountType, locale);
  return (
    <div className={styles.notice} role="status" data-testid="loyalty-notice" data-trigger={notice.trigger} data-type={notice.type}>
      {notice.image && <img className={styles.noticeImage} src={notice.image} alt="" />}
      <span className={styles.noticeTitle}>{notice.title}</span>
      <span>
        {notice.message}
        {amount !== null && ` ${notice.type === 'credit' ? '+' : ''}${amount}`}
      </span>
    </div>
  );
}
