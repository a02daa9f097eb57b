import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SITE_CONFIG } from '@/config/site-config';
import { createBalanceRefresher } from './balance-refresh';

const defaults = DEFAULT_SITE_CONFIG.balanceRefresh;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('balance refresh (SPEC §4, §9 defaults)', () => {
  it('has the SPEC defaults: every 10 s, 1 s after clicks, off after 5 min', () => {
    expect(defaults).toMatchObject({
      countSecondsForInterval: 10,
      countSecondsForDelayBetweenClick: 1,
      countMinutesAfterWhichRequestsTurnedOff: 5,
    });
  });

  it('refreshes on the interval and stops 5 minutes after the last click', () => {
    const refresh = vi.fn();
    createBalanceRefresher(defaults, refresh);
    vi.advanceTimersByTime(10_000);
    expect(refresh).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(4 * 60_000 + 50_000);
    expect(refresh).toHaveBeenCalledTimes(29);
    vi.advanceTimersByTime(60_000);
    expect(refresh).toHaveBeenCalledTimes(29);
  });

  it('refreshes a second after the last of a run of clicks', () => {
    const refresh = vi.fn();
    const refresher = createBalanceRefresher({ ...defaults, isEnabledInterval: false }, refresh);
    refresher.click();
    vi.advanceTimersByTime(500);
    refresher.click();
    vi.advanceTimersByTime(999);
    expect(refresh).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('does nothing after clicks when that is switched off, and nothing once stopped', () => {
    const refresh = vi.fn();
    const refresher = createBalanceRefresher({ ...defaults, isEnabledRequestsAfterClick: false }, refresh);
    refresher.click();
    vi.advanceTimersByTime(1_000);
    expect(refresh).not.toHaveBeenCalled();
    refresher.stop();
    vi.advanceTimersByTime(60_000);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('keeps refreshing without the turn-off switch', () => {
    const refresh = vi.fn();
    createBalanceRefresher({ ...defaults, isEnabledTurnOffRequests: false }, refresh);
    vi.advanceTimersByTime(10 * 60_000);
    expect(refresh).toHaveBeenCalledTimes(60);
  });
});
