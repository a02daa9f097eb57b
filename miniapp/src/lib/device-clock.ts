/**
 * Calls `check` at each of `times` (this device's clock, ms since the epoch; a past time at once)
 * and again whenever the page comes back into view: a timer may fire late, or not at all, on a
 * phone that slept. `check` reads the clock itself, so a call early or twice does no harm.
 * Answers the function that stops it (an effect's cleanup).
 *
 * For what a launch answer's `expires_in` times by the device's clock from the answer's arrival
 * (the server's `expires_at` may not agree with it): the sportsbook frame's relaunch, the game
 * page's session-end notice.
 */
export function atDeviceTimes(times: readonly number[], check: () => void): () => void {
  const timers = times.map((at) => window.setTimeout(check, Math.max(0, at - Date.now())));
  const onVisible = () => {
    if (document.visibilityState === 'visible') check();
  };
  document.addEventListener('visibilitychange', onVisible);
  return () => {
    for (const timer of timers) window.clearTimeout(timer);
    document.removeEventListener('visibilitychange', onVisible);
  };
}
