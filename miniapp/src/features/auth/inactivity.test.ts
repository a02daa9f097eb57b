import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { confirmContactHintLeft, registrationHintLeft } from './hints';
import { createInactivityTimer } from './inactivity';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function timer(timeoutMs: number) {
  const events: string[] = [];
  const control = createInactivityTimer({
    timeoutMs,
    onWarn: (deadline) => events.push(`warn:${String(deadline - Date.now())}`),
    onResume: () => events.push('resume'),
    onTimeout: () => events.push('timeout'),
  });
  return { events, control };
}

describe('inactivity (SPEC §4)', () => {
  it('warns at 80 % of the time, with the logout deadline, then logs out at 100 %', () => {
    const { events } = timer(10_000);
    vi.advanceTimersByTime(7_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(events).toEqual(['warn:2000']);
    vi.advanceTimersByTime(2_000);
    expect(events).toEqual(['warn:2000', 'timeout']);
  });

  it('starts the period again on activity, and ends the warning if one is shown', () => {
    const { events, control } = timer(10_000);
    vi.advanceTimersByTime(5_000);
    control.activity();
    vi.advanceTimersByTime(7_999);
    expect(events).toEqual([]);
    vi.advanceTimersByTime(1);
    control.activity();
    expect(events).toEqual(['warn:2000', 'resume']);
    vi.advanceTimersByTime(9_999);
    expect(events).toEqual(['warn:2000', 'resume', 'warn:2000']);
  });

  it('does nothing once stopped', () => {
    const { events, control } = timer(1_000);
    control.stop();
    vi.advanceTimersByTime(5_000);
    control.activity();
    vi.advanceTimersByTime(5_000);
    expect(events).toEqual([]);
  });
});

describe('hints (SPEC §4)', () => {
  const regTime = 1_700_000_000;
  const registeredAt = regTime * 1000;

  it('shows the registration hint for 2 hours after reg_time while there is no deposit', () => {
    expect(registrationHintLeft(regTime, registeredAt, false)).toBe(7_200_000);
    expect(registrationHintLeft(regTime, registeredAt + 7_199_999, false)).toBe(1);
    expect(registrationHintLeft(regTime, registeredAt + 7_200_000, false)).toBe(0);
    expect(registrationHintLeft(regTime, registeredAt, true)).toBe(0);
    expect(registrationHintLeft(0, registeredAt, false)).toBe(0);
  });

  it('shows the confirm-contact hint for 5 days while unconfirmed and no confirm_sent marker is stored', () => {
    const unconfirmed = { isConfirmed: false, confirmSent: false };
    expect(confirmContactHintLeft(regTime, registeredAt, unconfirmed)).toBe(432_000_000);
    expect(confirmContactHintLeft(regTime, registeredAt + 432_000_000, unconfirmed)).toBe(0);
    expect(confirmContactHintLeft(regTime, registeredAt, { isConfirmed: true, confirmSent: false })).toBe(0);
    expect(confirmContactHintLeft(regTime, registeredAt, { isConfirmed: false, confirmSent: true })).toBe(0);
  });
});
