/** SPEC §4: the registration hint shows for 2 hours after registration while there is no deposit. */
export const REGISTRATION_HINT_MS = 7_200_000;
/** SPEC §4: the confirm-contact hint shows for 5 days. */
export const CONFIRM_CONTACT_HINT_MS = 432_000_000;

/** Milliseconds the registration hint has left (0: hidden). `regTime` is unix seconds. */
export function registrationHintLeft(regTime: number, now: number, hasDeposit: boolean): number {
  if (hasDeposit || regTime <= 0) return 0;
  return Math.max(0, regTime * 1000 + REGISTRATION_HINT_MS - now);
}

/** Milliseconds the confirm-contact hint has left (0: hidden). */
export function confirmContactHintLeft(
  regTime: number,
  now: number,
  { isConfirmed, confirmSent }: { isConfirmed: boolean; confirmSent: boolean },
): number {
  if (isConfirmed || confirmSent || regTime <= 0) return 0;
  return Math.max(0, regTime * 1000 + CONFIRM_CONTACT_HINT_MS - now);
}
