// SPEC §5 input masks: `#` a digit, `@` a letter, `*` a letter or a digit; anything else is
// written as it is.

const TOKENS: Readonly<Record<string, RegExp>> = {
  '#': /\d/,
  '@': /\p{L}/u,
  '*': /[\p{L}\d]/u,
};

function isToken(char: string): boolean {
  return Object.hasOwn(TOKENS, char);
}

/**
 * Fits typed text into the mask: characters that fit no token are dropped, literals are
 * written in as soon as a following token gets a character. `+7 (###) ###-##-##`, `9161234567`
 * → `+7 (916) 123-45-67`.
 */
export function applyMask(input: string, mask: string): string {
  const chars = Array.from(unmask(input, mask));
  let output = '';
  let pending = '';
  for (const slot of Array.from(mask)) {
    if (chars.length === 0) break;
    if (!isToken(slot)) {
      pending += slot;
      continue;
    }
    const pattern = TOKENS[slot];
    let next = chars.shift();
    while (next !== undefined && !pattern?.test(next)) next = chars.shift();
    if (next === undefined) break;
    output += pending + next;
    pending = '';
  }
  return output;
}

/** The characters the player typed, without the mask's literals. */
export function unmask(value: string, mask: string): string {
  const literals = new Set(Array.from(mask).filter((c) => !isToken(c)));
  let rest = value;
  // A leading literal run (e.g. "+7 (") is the mask's, even when its characters are digits.
  const prefix = mask.slice(0, Array.from(mask).findIndex(isToken));
  if (prefix && rest.startsWith(prefix)) rest = rest.slice(prefix.length);
  return Array.from(rest).filter((c) => !literals.has(c) || /[\p{L}\d]/u.test(c)).join('');
}

/** Whether every token of the mask is filled. */
export function isMaskComplete(value: string, mask: string): boolean {
  return applyMask(value, mask).length === mask.length;
}
