import { createStore, useStore } from '@/lib/store';
import { readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';
import type { SportEvent } from './api/get-catalog';
import { ACCEPT_ODDS, MAX_SELECTIONS, ODDS_FORMATS, type AcceptOdds, type OddsFormat, type SlipKind } from './odds';

// The bet slip: the selections the player picked on any betting page, kept while they move
// between /betting and the event pages (in memory: a slip is a moment's intent, not a setting).
// The odds format and the "accept odds changes" choice are preferences: kept in this browser's
// storage like the other things the client remembers, so they hold for guests too.

export interface SlipEntry {
  selectionId: number;
  eventId: number;
  /** "Home v Away". */
  event: string;
  market: string;
  selection: string;
  /** The decimal price the slip shows, and sends. */
  odds: string;
  /** The price before the last change the slip saw, while that change is news to the player. */
  previous: string | null;
  /** The market is not taking bets now (suspended, settled, or the price withdrawn). */
  suspended: boolean;
}

export interface SlipState {
  entries: readonly SlipEntry[];
  kind: SlipKind;
  system: string | null;
  /** The stake per line as typed, in major units. */
  stake: string;
  /** The drawer is open (phones). */
  open: boolean;
  format: OddsFormat;
  accept: AcceptOdds;
}

function storedChoice<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  const value = readStored(key);
  return allowed.find((choice) => choice === value) ?? fallback;
}

export function initialSlip(): SlipState {
  return {
    entries: [],
    kind: 'single',
    system: null,
    stake: '',
    open: false,
    format: storedChoice(STORAGE_KEYS.oddsFormat, ODDS_FORMATS, 'decimal'),
    accept: storedChoice(STORAGE_KEYS.acceptOdds, ACCEPT_ODDS, 'never'),
  };
}

export const slipStore = createStore<SlipState>(initialSlip());

export function useSlip(): SlipState {
  return useStore(slipStore);
}

function update(change: (state: SlipState) => Partial<SlipState>): void {
  const state = slipStore.get();
  const patch = change(state);
  if (Object.keys(patch).length > 0) slipStore.set({ ...state, ...patch });
}

/** The kind a slip of `count` selections starts as, keeping the player's choice while it still fits. */
function fittingKind(kind: SlipKind, count: number): SlipKind {
  if (kind === 'accumulator' && count < 2) return 'single';
  if (kind === 'system' && count < 3) return count >= 2 ? 'accumulator' : 'single';
  return kind;
}

/**
 * Adds a selection, or takes it off when it is already there. One selection per event: a second
 * from the same event replaces the first (two outcomes of one match do not combine).
 */
export function toggleSelection(entry: Omit<SlipEntry, 'previous' | 'suspended'>): void {
  update((state) => {
    if (state.entries.some((e) => e.selectionId === entry.selectionId)) {
      const entries = state.entries.filter((e) => e.selectionId !== entry.selectionId);
      return { entries, kind: fittingKind(state.kind, entries.length), system: null };
    }
    const others = state.entries.filter((e) => e.eventId !== entry.eventId);
    if (others.length >= MAX_SELECTIONS) return {};
    const entries = [...others, { ...entry, previous: null, suspended: false }];
    return { entries, kind: fittingKind(state.kind, entries.length), system: null };
  });
}

export function removeSelection(selectionId: number): void {
  update((state) => {
    const entries = state.entries.filter((e) => e.selectionId !== selectionId);
    return { entries, kind: fittingKind(state.kind, entries.length), system: null };
  });
}

export function clearSlip(): void {
  update(() => ({ entries: [], kind: 'single', system: null }));
}

export function setSlipKind(kind: SlipKind, system: string | null = null): void {
  update((state) => ({ kind: fittingKind(kind, state.entries.length), system: kind === 'system' ? system : null }));
}

export function setStake(stake: string): void {
  update(() => ({ stake }));
}

export function setSlipOpen(open: boolean): void {
  update(() => ({ open }));
}

export function setOddsFormat(format: OddsFormat): void {
  writeStored(STORAGE_KEYS.oddsFormat, format);
  update(() => ({ format }));
}

export function setAcceptOdds(accept: AcceptOdds): void {
  writeStored(STORAGE_KEYS.acceptOdds, accept);
  update(() => ({ accept }));
}

/** Applies prices now (`null`: not offered) to the slip's entries they name; the others stay as they are. */
export function applyPrices(prices: ReadonlyMap<number, string | null>): void {
  update((state) => {
    const entries = state.entries.map((entry) => {
      if (!prices.has(entry.selectionId)) return entry;
      const now = prices.get(entry.selectionId) ?? null;
      const suspended = now === null;
      const odds = now ?? entry.odds;
      if (odds === entry.odds && suspended === entry.suspended) return entry;
      return { ...entry, odds, suspended, previous: odds === entry.odds ? entry.previous : entry.odds };
    });
    return entries.some((entry, index) => entry !== state.entries[index]) ? { entries } : {};
  });
}

/** The prices of every selection the events show: only active markets' prices count as offered. */
export function pricesOf(events: readonly SportEvent[]): Map<number, string | null> {
  const prices = new Map<number, string | null>();
  for (const event of events) {
    const open = event.status === 'scheduled' || event.status === 'live';
    for (const market of event.markets) {
      for (const selection of market.selections) {
        prices.set(selection.id, open && market.state === 'active' ? selection.odds : null);
      }
    }
  }
  return prices;
}

/** The player has seen the changes: the arrows go. */
export function acknowledgeChanges(): void {
  update((state) => ({ entries: state.entries.map((entry) => (entry.previous === null ? entry : { ...entry, previous: null })) }));
}

/** Takes placed selections off the slip. */
export function removePlaced(selectionIds: readonly number[]): void {
  update((state) => {
    const entries = state.entries.filter((e) => !selectionIds.includes(e.selectionId));
    return { entries, kind: fittingKind(state.kind, entries.length), system: entries.length === 0 ? null : state.system };
  });
}
