/** SPEC §4/§9: the warning shows during the last 20 % of the forced-logout time. */
export const WARNING_SHARE = 0.2;

export interface InactivityTimerOptions {
  timeoutMs: number;
  /** The warning starts; `deadline` is when the logout happens (ms since the epoch). */
  onWarn: (deadline: number) => void;
  /** Activity came back during the warning. */
  onResume: () => void;
  onTimeout: () => void;
  /**
   * Whether the player is busy where this page cannot see their input (a game's or a sportsbook
   * provider's frame has the focus): asked when the warning is due, and a yes starts the period
   * again instead of warning.
   */
  engaged?: () => boolean;
  now?: () => number;
}

export interface InactivityTimer {
  /** The player did something: start the period again. */
  activity: () => void;
  stop: () => void;
}

/** Forced logout after `timeoutMs` without activity, with a warning at 80 % of it. */
export function createInactivityTimer({
  timeoutMs,
  onWarn,
  onResume,
  onTimeout,
  engaged = () => false,
  now = Date.now,
}: InactivityTimerOptions): InactivityTimer {
  let warnTimer: ReturnType<typeof setTimeout> | undefined;
  let logoutTimer: ReturnType<typeof setTimeout> | undefined;
  let warning = false;
  let stopped = false;

  const clear = () => {
    clearTimeout(warnTimer);
    clearTimeout(logoutTimer);
  };

  const start = () => {
    clear();
    const deadline = now() + timeoutMs;
    warnTimer = setTimeout(() => {
      if (engaged()) {
        start();
        return;
      }
      warning = true;
      onWarn(deadline);
    }, timeoutMs * (1 - WARNING_SHARE));
    logoutTimer = setTimeout(() => {
      stopped = true;
      warning = false;
      onTimeout();
    }, timeoutMs);
  };

  start();
  return {
    activity: () => {
      if (stopped) return;
      if (warning) {
        warning = false;
        onResume();
      }
      start();
    },
    stop: () => {
      stopped = true;
      clear();
    },
  };
}
