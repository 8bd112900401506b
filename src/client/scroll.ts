/**
 * Scroll position on arrival (spec section 2): a URL with a hash lands on its
 * target; any other freshly loaded page starts at the top. Back/forward and
 * reload keep the browser's own restoration.
 */

/** The element a hash names, by id or (legacy anchors) by name. */
export function hashTarget(hash: string, doc: Document = document): HTMLElement | null {
  if (!hash || hash === '#') return null;
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // A malformed escape: look the raw text up.
  }
  return doc.getElementById(id) ?? doc.getElementsByName(id)[0] ?? null;
}

function navigationType(): string {
  const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type ?? 'navigate';
}

/** Focus follows the scroll so keyboard and screen-reader users continue from the target. */
function land(target: HTMLElement): void {
  target.scrollIntoView({ block: 'start' });
  if (!target.matches('a[href], button, input, select, textarea, [tabindex]')) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}

export function initScroll(doc: Document = document): void {
  if (navigationType() === 'navigate') {
    const target = hashTarget(location.hash, doc);
    if (target) land(target);
    else if (!location.hash) window.scrollTo(0, 0);
  }
  // In-page links: the browser scrolls; move focus too.
  window.addEventListener('hashchange', () => {
    const target = hashTarget(location.hash, doc);
    if (target) land(target);
  });
}
