// SPEC §9 "Rendered list limits": a long game list never keeps more than 1000 cards in the page;
// around what is on screen it keeps a buffer of 200 on each side and stands in for the rest
// with empty space of the same height, so the scroll bar and position stay true.

export const MAX_RENDERED_ITEMS = 1000;
export const RENDER_BUFFER = 200;

export interface ItemWindow {
  /** First index rendered. */
  start: number;
  /** One past the last index rendered. */
  end: number;
}

/**
 * The slice of `total` items to render when items `firstVisible` … `lastVisible` are on screen.
 * Lists up to `max` items are rendered whole; longer ones keep `buffer` items either side of the
 * visible ones, never more than `max` in all.
 */
export function renderWindow(
  total: number,
  firstVisible: number,
  lastVisible: number,
  max = MAX_RENDERED_ITEMS,
  buffer = RENDER_BUFFER,
): ItemWindow {
  if (total <= max) return { start: 0, end: total };
  const first = Math.min(Math.max(firstVisible, 0), total - 1);
  const last = Math.min(Math.max(lastVisible, first), total - 1);
  let start = Math.max(0, first - buffer);
  let end = Math.min(total, last + 1 + buffer);
  if (end - start > max) {
    // More on screen than the limit allows (a giant viewport): keep the top of it.
    end = start + max;
  }
  // Keep slices starting on a row boundary is the caller's job (see `alignToColumns`).
  start = Math.max(0, start);
  return { start, end };
}

/** Moves a window's start back to the beginning of its grid row so columns never shift. */
export function alignToColumns(window: ItemWindow, columns: number): ItemWindow {
  const cols = Math.max(1, Math.floor(columns));
  return { start: window.start - (window.start % cols), end: window.end };
}

/** Rows of a grid of `columns` (rounded up) that `count` items fill. */
export function rowsFor(count: number, columns: number): number {
  return Math.ceil(Math.max(0, count) / Math.max(1, Math.floor(columns)));
}
