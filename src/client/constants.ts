/**
 * Timings and limits of the browser behaviours, from the spec (sections 4 and 9).
 * One module so that the templates' data attributes, the tests and the code agree.
 */

/** Navigation loading bar: appears only for slow navigations, creeps, then fades. */
export const LOADING_BAR = {
  /** Shown only if the next page takes longer than this. */
  throttleMs: 200,
  /** The bar runs over about this long before it waits at its end. */
  durationMs: 5000,
  tickMs: 100,
  /** Stays visible this long after finishing so the completion can be seen. */
  hideDelayMs: 500,
} as const;

/** Sliders on home and listing pages; `data-transition` / `data-autoplay` override them. */
export const SLIDER = {
  transitionMs: 300,
  autoplayMs: 3000,
  /** Horizontal travel of a pointer that counts as a swipe. */
  swipePx: 40,
} as const;

/** Product gallery zoom; `data-zoom-max` overrides the maximum. */
export const ZOOM = {
  max: 3,
  min: 1,
  /** Factor of one button press or key press. */
  step: 1.5,
  /** Scale change per pixel of wheel travel (exponential so zoom feels even). */
  wheelPerPx: 0.002,
} as const;

/** Lazily loaded code chunks (the search engine, the forms). */
export const CHUNK = {
  timeoutMs: 120_000,
  /** A failed chunk reloads the page, but not twice within this window. */
  reloadGuardMs: 60_000,
} as const;

/** Prefetch of internal links. */
export const PREFETCH = {
  /** Hover intent: a pointer resting this long on a link. */
  hoverDelayMs: 65,
  /** Links prefetched because they scrolled into view, per page. */
  maxInView: 24,
  slowConnections: ['slow-2g', '2g'] as readonly string[],
} as const;

/** Copy-link feedback. */
export const COPY_FEEDBACK_MS = 2000;

/** Search: results shown and their snippet length. */
export const SEARCH = {
  maxResults: 50,
  snippetChars: 180,
  /** Typing on /search re-runs the query after this pause. */
  inputDebounceMs: 120,
} as const;

/** localStorage / sessionStorage keys, prefixed so they never clash with third-party scripts. */
export const STORAGE = {
  reloadAt: 'site:chunk-reload-at',
  outbox: 'site:inquiry-outbox',
  draftPrefix: 'site:inquiry-draft:',
  inquiryList: 'site:inquiry-list',
} as const;

export const THANKS_PATH = '/thanks';
