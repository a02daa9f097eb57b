import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';

const pad2 = (value: number) => String(value).padStart(2, '0');

/** Seconds left until `until` (unix seconds), never below zero. */
export function secondsLeft(until: number, nowMs: number): number {
  return Math.max(0, Math.floor(until - nowMs / 1000));
}

/** `hh:mm:ss`, with the days in front when there is at least one (`2 d 03:04:05`). */
export function formatCountdown(t: TFunction, seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const time = `${pad2(Math.floor((seconds % 86_400) / 3600))}:${pad2(Math.floor((seconds % 3600) / 60))}:${pad2(seconds % 60)}`;
  return days > 0 ? t('time.countdownDays', { days, time }) : time;
}

/** The clock, re-read every second while the caller shows a countdown. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      setNow(Date.now());
    }, 1000);
    return () => {
      clearInterval(timer);
    };
  }, [active]);
  return now;
}
