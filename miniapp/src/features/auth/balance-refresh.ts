import type { BalanceRefreshSettings } from '@/config/site-config';

export interface BalanceRefresher {
  /** The player clicked somewhere. */
  click: () => void;
  stop: () => void;
}

/**
 * SPEC §4 balance refresh: every `countSecondsForInterval` seconds; optionally not once
 * `countMinutesAfterWhichRequestsTurnedOff` minutes have passed since the last click; and, when
 * enabled, `countSecondsForDelayBetweenClick` seconds after the last of a run of clicks.
 */
export function createBalanceRefresher(
  settings: BalanceRefreshSettings,
  refresh: () => void,
  now: () => number = Date.now,
): BalanceRefresher {
  let lastClick = now();
  let clickTimer: ReturnType<typeof setTimeout> | undefined;
  const turnedOff = () =>
    settings.isEnabledTurnOffRequests && now() - lastClick >= settings.countMinutesAfterWhichRequestsTurnedOff * 60_000;

  const interval = settings.isEnabledInterval
    ? setInterval(() => {
        if (!turnedOff()) refresh();
      }, settings.countSecondsForInterval * 1000)
    : undefined;

  return {
    click: () => {
      lastClick = now();
      if (!settings.isEnabledRequestsAfterClick) return;
      clearTimeout(clickTimer);
      clickTimer = setTimeout(refresh, settings.countSecondsForDelayBetweenClick * 1000);
    },
    stop: () => {
      clearInterval(interval);
      clearTimeout(clickTimer);
    },
  };
}
