import { describe, expect, it } from 'vitest';
import { formatDate, formatTime } from './format';
import { formatTimeAgo, formatZonedDateTime } from './time-format';

describe('times in a time zone', () => {
  // 2026-03-12 17:05 UTC.
  const at = Date.UTC(2026, 2, 12, 17, 5) / 1000;

  it('reads the clock of the zone', () => {
    expect(formatZonedDateTime(at, 'UTC')).toBe('12.03.2026 17:05');
    expect(formatZonedDateTime(at, 'Europe/Paris')).toBe('12.03.2026 18:05');
    expect(formatZonedDateTime(at, 'Asia/Tokyo')).toBe('13.03.2026 2:05');
  });

  it('falls back to the browser clock for an unknown zone', () => {
    expect(formatZonedDateTime(at, 'Nowhere/Atlantis')).toBe(`${formatDate(at)} ${formatTime(at)}`);
  });
});

describe('time ago', () => {
  const now = Date.UTC(2026, 2, 12, 17, 0);

  it('says how long ago in the language of the page', () => {
    expect(formatTimeAgo(now / 1000 - 30, now, 'en')).toBe('30 seconds ago');
    expect(formatTimeAgo(now / 1000 - 5 * 60, now, 'en')).toBe('5 minutes ago');
    expect(formatTimeAgo(now / 1000 - 3 * 3600, now, 'fr')).toBe('il y a 3 heures');
    expect(formatTimeAgo(now / 1000 - 86_400, now, 'en')).toBe('yesterday');
  });

  it('reads a time ahead of the clock as now', () => {
    expect(formatTimeAgo(now / 1000 + 20, now, 'en')).toBe('now');
  });
});
