import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useSiteConfig } from '@/config/site-config';
import { dialogs } from '@/lib/dialogs/dialog-stack';
import { formatMoney } from '@/lib/format';
import { i18n, useLocale } from '@/lib/i18n';
import { formatMessage } from '@/lib/validation';
import { getRealityCheck, getRg, protectionKeys, type RealityCheck } from './api';
import styles from './protection.module.css';

/** "1 h 05 min" for a number of seconds. */
export function sessionLength(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  return formatMessage(i18n.t('responsible.hoursMinutes'), { h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0') });
}

/** Milliseconds until the next check: every `interval` minutes from the session's start. */
export function nextCheckIn(sessionStartedAt: number, intervalMinutes: number, now = Date.now()): number {
  const period = intervalMinutes * 60_000;
  const elapsed = now - sessionStartedAt * 1000;
  return period - (((elapsed % period) + period) % period) || period;
}

function RealityDialog({ check, onContinue, onStop }: { check: RealityCheck; onContinue: () => void; onStop: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const money = (m: { amount: string; currency: string }) => formatMoney(m.amount, m.currency, locale);
  return (
    <div className={styles.reality} data-testid="reality-check">
      <h2>{t('responsible.realityTitle')}</h2>
      <p>{formatMessage(t('responsible.realityDialogTime'), { time: sessionLength(check.session_seconds) })}</p>
      <p data-testid="reality-net">
        {formatMessage(t('responsible.realityDialogNet'), { amount: money(check.net_result), stakes: money(check.stakes), wins: money(check.wins) })}
      </p>
      <div className={styles.actions}>
        <Button onClick={onContinue} data-autofocus>
          {t('responsible.realityContinue')}
        </Button>
        <Button variant="secondary" onClick={onStop}>
          {t('responsible.realityStop')}
        </Button>
      </div>
    </div>
  );
}

/**
 * The reality check for a signed-in player who chose an interval: every interval from the
 * session's start, a dialog (over a game too: the dialog host sits above the game's frame) with
 * the session's length and net result; "stop" signs out.
 */
export function RealityCheckWatcher({ onStop }: { onStop: () => void }) {
  const { t } = useTranslation();
  const { switches } = useSiteConfig();
  const rg = useQuery({ queryKey: protectionKeys.rg(), queryFn: ({ signal }) => getRg({ signal }), enabled: switches.responsibleGaming });
  const interval = rg.data?.reality_check_minutes ?? null;
  // The timer lives as long as the interval: a new `onStop` or language does not restart it.
  const stop = useRef(onStop);
  const translate = useRef(t);
  useEffect(() => {
    stop.current = onStop;
    translate.current = t;
  }, [onStop, t]);
  useEffect(() => {
    if (!interval) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const schedule = async () => {
      const first = await getRealityCheck().catch(() => null);
      if (!first || cancelled) return;
      timer = setTimeout(() => {
        void show();
      }, nextCheckIn(first.session_started_at, interval));
    };
    const show = async () => {
      const check = await getRealityCheck().catch(() => null);
      if (!check || cancelled) return;
      const id = dialogs.open({
        name: 'reality-check',
        label: translate.current('responsible.realityTitle'),
        kind: 'confirm',
        preventClose: true,
        render: () => (
          <RealityDialog
            check={check}
            onContinue={() => {
              dialogs.close(id, { immediate: true });
              void schedule();
            }}
            onStop={() => {
              dialogs.close(id, { immediate: true });
              stop.current();
            }}
          />
        ),
      });
    };
    void schedule();
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [interval]);
  return null;
}
