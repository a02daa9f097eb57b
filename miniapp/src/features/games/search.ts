// SPEC §9 "Search list constants 15, 12, 300": a search asks for 15 games, the popup shows 12
// popular games before anything is typed, and typing settles for 300 ms before a request.

export const SEARCH_RESULTS_LIMIT = 15;
export const SEARCH_SUGGESTIONS_LIMIT = 12;
export const SEARCH_DEBOUNCE_MS = 300;
/** Shorter queries match nearly everything; the popup keeps showing suggestions until then. */
export const SEARCH_MIN_LENGTH = 2;

/** The query as sent: trimmed, inner runs of spaces collapsed; `null` while too short to search. */
export function searchTerm(input: string): string | null {
  const term = input.trim().replace(/\s+/g, ' ');
  return term.length >= SEARCH_MIN_LENGTH ? term : null;
}

/** Calls `run` with the latest value once `delay` ms pass without a new one. */
export function debounce<A extends unknown[]>(run: (...args: A) => void, delay = SEARCH_DEBOUNCE_MS) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      run(...args);
    }, delay);
  };
  debounced.cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return debounced;
}
