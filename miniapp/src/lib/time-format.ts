import type { Locale } from '@/config/locales';
import { formatDate, formatTime } from './format';

// Times as a clock in another zone reads them, and how long ago something happened (unix seconds).

/** The IANA time zone of the browser. */
export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** dd.mm.yyyy h:mm as a clock in `timeZone` (IANA) reads it; the browser's clock for an unknown zone. */
export function formatZonedDateTime(seconds: number, timeZone: string): string {
  const date = new Date(seconds * 1000);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(date);
  } catch {
    return `${formatDate(date)} ${formatTime(date)}`;
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')} ${String(Number(part('hour')))}:${part('minute')}`;
}

/** "5 minutes ago" in the locale's own words, from unix seconds; a time ahead of the clock reads as now. */
export function formatTimeAgo(at: number, nowMs: number, locale: Locale): string {
  const seconds = Math.min(0, Math.round(at - nowMs / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (seconds > -60) return format.format(seconds, 'second');
  if (seconds > -3600) return format.format(Math.round(seconds / 60), 'minute');
  if (seconds > -86_400) return format.format(Math.round(seconds / 3600), 'hour');
  return format.format(Math.round(seconds / 86_400), 'day');
}
