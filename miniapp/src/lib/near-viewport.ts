// Below-the-fold parts of a page start their work (queries, and the renders their answers bring)
// only when the reader scrolls near them (issue 23: the home page's game rows answering during
// start-up were main-thread work Lighthouse counted as blocking time). The element is rendered
// from the start — a skeleton of its final size — so nothing shifts when its content arrives.

import { useCallback, useEffect, useState } from 'react';

/** How far outside the viewport an element counts as near: it loads before it scrolls in. */
export const NEAR_VIEWPORT_MARGIN = '400px 0px';

/**
 * Whether the element given to the returned ref has come within `margin` of the viewport; stays
 * true once it has. True at once where IntersectionObserver does not exist.
 */
export function useNearViewport(margin = NEAR_VIEWPORT_MARGIN): [(element: Element | null) => void, boolean] {
  const observable = typeof IntersectionObserver !== 'undefined';
  const [element, setElement] = useState<Element | null>(null);
  const [near, setNear] = useState(!observable);
  useEffect(() => {
    if (near || !element) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => {
      observer.disconnect();
    };
  }, [element, margin, near]);
  const ref = useCallback((node: Element | null) => {
    setElement(node);
  }, []);
  return [ref, near];
}
