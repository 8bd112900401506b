/**
 * Scroll position on arrival (spec section 2): a URL with a hash lands on its
 * target (ids percent-decoded, legacy `name` anchors too) and takes focus; any
 * other freshly loaded page starts at the top, as browsers do for documents.
 * Back/forward and reload keep the browser's own restoration.
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
  // A freshly navigated page already starts at the top (the browser restores
  // positions only on back/forward and reload); scrolling it again would force
  // a layout during start-up for nothing.
  if (navigationType() === 'navigate' && location.hash) {
    const target = hashTarget(location.hash, doc);
    if (target) land(target);
  }
  // In-page links: the browser scrolls; move focus too.
  window.addEventListener('hashchange', () => {
    const target = hashTarget(location.hash, doc);
    if (target) land(target);
  });
}
