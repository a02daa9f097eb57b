// Paged lists (SPEC §9 "History page size 4"): the cashier's history tabs, the game history.

/** Items per page of a history list. */
export const HISTORY_PAGE_SIZE = 4;

/** Offset of the next page, or undefined once every item is loaded. */
export function nextOffset(loaded: number, total: number, lastPageSize: number, pageSize = HISTORY_PAGE_SIZE): number | undefined {
  return loaded < total && lastPageSize === pageSize ? loaded : undefined;
}

/** `getNextPageParam` of an infinite query over `{ total, items }` pages. */
export function nextPageParam(last: { total: number; items: readonly unknown[] }, pages: readonly { items: readonly unknown[] }[]): number | undefined {
  return nextOffset(pages.reduce((n, page) => n + page.items.length, 0), last.total, last.items.length);
}
