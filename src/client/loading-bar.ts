/**
 * The navigation loading bar (spec sections 4 and 9). Static pages have no
 * client router, so "navigation" is a followed link, a form post or a fetch the
 * page waits on (an inquiry being sent). The bar shows only when the wait
 * passes the throttle, so fast pages never flash it.
 */
import { LOADING_BAR } from './constants.js';

export interface LoadingBar {
  start(): void;
  finish(failed?: boolean): void;
  /** Back to hidden at once (a page restored from the back/forward cache). */
  reset(): void;
}

/** Progress (0..1) after `elapsed` ms: linear to 90% over the duration, then waits for finish. */
export function progressAt(elapsed: number, durationMs: number = LOADING_BAR.durationMs): number {
  return Math.min(0.9, Math.max(0, (elapsed / durationMs) * 0.9));
}

export function createLoadingBar(el: HTMLElement): LoadingBar {
  let throttle: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let hider: ReturnType<typeof setTimeout> | undefined;
  let startedAt = 0;

  const paint = (p: number) => el.style.setProperty('--progress', p.toFixed(3));
  const clear = () => {
    clearTimeout(throttle);
    clearInterval(ticker);
    clearTimeout(hider);
    throttle = ticker = hider = undefined;
  };
  const hide = () => {
    clear();
    el.hidden = true;
    el.classList.remove('is-failed', 'is-done');
    el.removeAttribute('data-state');
    paint(0);
  };

  return {
    start() {
      hide();
      startedAt = performance.now();
      el.dataset.state = 'pending';
      throttle = setTimeout(() => {
        el.hidden = false;
        el.dataset.state = 'running';
        paint(progressAt(performance.now() - startedAt));
        ticker = setInterval(() => paint(progressAt(performance.now() - startedAt)), LOADING_BAR.tickMs);
      }, LOADING_BAR.throttleMs);
    },
    finish(failed = false) {
      if (el.hidden) {
        hide(); // finished inside the throttle: never shown
        return;
      }
      clearTimeout(throttle);
      clearInterval(ticker);
      paint(1);
      el.classList.add(failed ? 'is-failed' : 'is-done');
      el.dataset.state = failed ? 'failed' : 'done';
      hider = setTimeout(hide, LOADING_BAR.hideDelayMs);
    },
    reset: hide,
  };
}

/** A click that will make the browser load another document in this tab. */
export function isNavigatingClick(event: MouseEvent, link: HTMLAnchorElement, here: Location): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.target && link.target !== '_self') return false;
  if (link.hasAttribute('download')) return false;
  const url = new URL(link.href, here.href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // Same document with only a hash change: the browser scrolls, nothing loads.
  if (url.origin === here.origin && url.pathname === here.pathname && url.search === here.search && url.hash !== '') return false;
  return true;
}

export function initLoadingBar(doc: Document = document): LoadingBar | null {
  const el = doc.getElementById('loading-bar');
  if (!el) return null;
  const bar = createLoadingBar(el);
  doc.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest?.('a[href]');
    if (link instanceof HTMLAnchorElement && isNavigatingClick(event, link, location)) bar.start();
  });
  doc.addEventListener('submit', (event) => {
    // Forms the client sends itself call preventDefault; only real posts navigate.
    queueMicrotask(() => {
      if (!event.defaultPrevented) bar.start();
    });
  });
  // Restored from the back/forward cache: the bar of the click that left is still up.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) bar.reset();
  });
  return bar;
}
