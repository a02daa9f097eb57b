import { describe, expect, it } from 'vitest';
import { i18n } from '@/lib/i18n';
import { formatCountdown, secondsLeft } from './countdown';

const t = i18n.t.bind(i18n);

describe('countdown', () => {
  it('counts the seconds left, never below zero', () => {
    expect(secondsLeft(1000, 990_500)).toBe(9);
    expect(secondsLeft(1000, 2_000_000)).toBe(0);
  });

  it('shows hh:mm:ss, with the days in front', () => {
    expect(formatCountdown(t, 3 * 3600 + 4 * 60 + 5)).toBe('03:04:05');
    expect(formatCountdown(t, 2 * 86_400 + 59)).toBe('2 d 00:00:59');
    expect(formatCountdown(t, 0)).toBe('00:00:00');
  });
});
