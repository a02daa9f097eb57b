import { useCallback, useEffect, useState } from 'react';

/** Whole seconds left until `deadline` (ms since the epoch), updated as time passes. */
export function useSecondsUntil(deadline: number): number {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    const tick = () => {
      setRemaining(Math.max(0, Math.ceil((deadline - Date.now()) / 1000)));
    };
    tick();
    const timer = setInterval(tick, 250);
    return () => {
      clearInterval(timer);
    };
  }, [deadline]);
  return remaining;
}

/** Seconds counting down from `initialSeconds`; `restart(n)` starts again from n. */
export function useCountdown(initialSeconds: number): [number, (seconds: number) => void] {
  const [deadline, setDeadline] = useState(() => Date.now() + initialSeconds * 1000);
  const restart = useCallback((seconds: number) => {
    setDeadline(Date.now() + seconds * 1000);
  }, []);
  return [useSecondsUntil(deadline), restart];
}

/**
 * Milliseconds a time-limited thing (a hint) has left, by `compute(now)`; re-renders when
 * that time runs out so the thing disappears on time.
 */
export function useTimeLeft(compute: (now: number) => number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = compute(now);
  useEffect(() => {
    if (left <= 0) return;
    // setTimeout takes at most a 32-bit delay (~24.8 days).
    const timer = setTimeout(() => {
      setNow(Date.now());
    }, Math.min(left, 2 ** 31 - 1));
    return () => {
      clearTimeout(timer);
    };
  }, [left]);
  return left;
}
