/**
 * Prefetch of internal links on hover intent or when they scroll into view,
 * with `<link rel="prefetch">` so the browser fetches at idle priority and
 * keeps the page in its HTTP cache for the click. Skipped offline, on 2g and
 * with data saver (spec section 4); the check runs at prefetch time because
 * the connection changes while a page is open.
 */
import { PREFETCH } from './constants.js';
import { canSpeculate } from './network.js';

/** The URL worth prefetching for a link, or null (other origin, same page, downloads, API). */
export function prefetchTarget(link: HTMLAnchorElement, here: Location): string | null {
  if (link.hasAttribute('download') || link.target === '_blank' || /\bnofollow\b/.test(link.rel)) return null;
  let url: URL;
  try {
    url = new URL(link.href, here.href);
  } catch {
    return null;
  }
  if (url.origin !== here.origin) return null;
  if (url.pathname === here.pathname && url.search === here.search) return null;
  if (url.pathname.startsWith('/api/')) return null;
  // Only documents: a link to an image or a file gains nothing from warming.
  if (/\.(?!html?$)[a-z0-9]{2,5}$/i.test(url.pathname)) return null;
  url.hash = '';
  return url.href;
}

export function initPrefetch(doc: Document = document): void {
  const done = new Set<string>([location.href.split('#')[0]]);
  let inView = 0;

  const prefetch = (link: HTMLAnchorElement): boolean => {
    const href = prefetchTarget(link, location);
    if (!href || done.has(href) || !canSpeculate()) return false;
    done.add(href);
    const hint = doc.createElement('link');
    hint.rel = 'prefetch';
    hint.href = href;
    doc.head.append(hint);
    return true;
  };

  let hoverTimer: ReturnType<typeof setTimeout> | undefined;
  const onIntent = (event: Event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (!(link instanceof HTMLAnchorElement)) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => prefetch(link), event.type === 'focusin' ? 0 : PREFETCH.hoverDelayMs);
  };
  doc.addEventListener('pointerover', onIntent, { passive: true });
  doc.addEventListener('focusin', onIntent);
  doc.addEventListener('pointerout', () => clearTimeout(hoverTimer), { passive: true });

  if (!('IntersectionObserver' in window)) return;
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      if (inView >= PREFETCH.maxInView) {
        observer.disconnect();
        return;
      }
      if (prefetch(entry.target as HTMLAnchorElement)) inView++;
    }
  });
  // After load and at idle: the page's own resources and start-up come first.
  const observeAll = () => {
    for (const link of doc.querySelectorAll<HTMLAnchorElement>('main a[href]')) observer.observe(link);
  };
  const whenIdle = () => ('requestIdleCallback' in window ? requestIdleCallback(observeAll, { timeout: 3000 }) : setTimeout(observeAll, 1000));
  if (doc.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}
