// The player site's messages come in two parts (issue 23: the JavaScript a first visit to `/`
// loads). The first part is every group of en.json/fr.json except those listed here, and is what
// the first render of any page may use: the layout (header, footer, menus), the home page, the
// dialogs and toasts every page can open, server errors. The rest, the groups of pages reached by
// navigation, loads with such a page (its route awaits `loadAllMessages`) or with a lazy part that
// uses them (the sign-in form, the signed-in player's hints and watchers).
//
// A group missing here stays in the first part: a new group costs bytes, never a missing text.
// A group moved here must be used only by route pages and lazy parts that await the rest; in
// production a deferred key asked for too early renders empty and loads the rest (it re-renders
// then); under `vite dev` it throws like any missing key (the unit tests load every message at
// set-up, src/test/setup.ts).
//
// Plain TypeScript without path aliases: vite.config.ts splits the files with it at build time.

export const DEFERRED_GROUPS: readonly string[] = [
  'betting',
  'bonuses',
  'cashbacks',
  'cashier',
  'confirmation',
  'gameHistory',
  'gamePage',
  'hints',
  'jackpots',
  'loyalty',
  'offers',
  'payfail',
  'paymobile',
  'paynewwindow',
  'paypending',
  'paycancel',
  'paysuccess',
  'profile',
  'responsible',
  'tournaments',
  'validation',
  'winners',
];

export type MessagePart = 'first' | 'rest';

/** The groups of `messages` that belong to `part`. */
export function messagePart(messages: Record<string, unknown>, part: MessagePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(messages).filter(([group]) => DEFERRED_GROUPS.includes(group) === (part === 'rest')));
}

/** Whether a message key (`group.name…`) is in the deferred part. */
export function isDeferredKey(key: string): boolean {
  return DEFERRED_GROUPS.includes(key.split('.', 1)[0] ?? '');
}
