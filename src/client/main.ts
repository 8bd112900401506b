/**
 * Progressive enhancement of every page. Each behaviour finds its markup (see
 * docs/CONTRACTS.md, "Markup the browser code relies on") and does nothing
 * when it is absent, so one small bundle serves every screen. The inquiry
 * forms and their zod schema load as a separate chunk, on intent (see
 * initFormsOnIntent); the gallery and the slider as chunks of their own, on
 * the pages that have one (see initWhereFound).
 */
import { STORAGE } from './constants.js';
import { initCtaBar } from './cta-bar.js';
import { initInquiryChoice } from './inquiry-choice.js';
import { initInquiryList } from './inquiry-list.js';
import { initLoadingBar, type LoadingBar } from './loading-bar.js';
import { initMenus } from './menu.js';
import { initOnlineFlag } from './network.js';
import { initPrefetch } from './prefetch.js';
import { initScroll } from './scroll.js';
import { initShare } from './share.js';

/** Something of the buyer's waits in this browser: an unsent inquiry, or a draft typed on this page. */
function hasPendingInquiry(): boolean {
  try {
    if ((localStorage.getItem(STORAGE.outbox) ?? '[]') !== '[]') return true;
    const prefix = `${STORAGE.draftPrefix}${location.pathname}#`;
    for (let i = 0; i < localStorage.length; i++) if (localStorage.key(i)?.startsWith(prefix)) return true;
  } catch {
    // storage disabled: nothing can be pending
  }
  return false;
}

/**
 * The inquiry forms' code (with the zod schema, most of the script weight) loads
 * on intent: when the buyer first touches a form, or at once when something of
 * theirs is pending. A submit that comes before it has loaded waits for it; if
 * it cannot load, the form posts the plain way, so nothing is lost.
 */
function initFormsOnIntent(bar: LoadingBar | null): void {
  const forms = Array.from(document.querySelectorAll<HTMLFormElement>('form[data-inquiry-form]'));
  // The time-on-form check needs the page's load time, not the chunk's.
  for (const form of forms) {
    const started = form.elements.namedItem('_started');
    if (started instanceof HTMLInputElement && started.value === '') started.value = String(Date.now());
  }
  let ready = false;
  let loading: Promise<void> | null = null;
  const load = () =>
    (loading ??= import('./forms.js').then((m) => {
      m.initForms(document, bar);
      ready = true;
    }));
  const enhance = () => load().catch((err: unknown) => console.error('site: inquiry forms could not be enhanced', err));
  if (hasPendingInquiry()) enhance();
  if (forms.length === 0) return;
  const onIntent = (event: Event) => {
    if ((event.target as Element | null)?.closest?.('form[data-inquiry-form]')) enhance();
  };
  document.addEventListener('focusin', onIntent);
  document.addEventListener('pointerdown', onIntent, { passive: true });
  // The browser's own validation stopped a Send before the code arrived: hold
  // its bubbles, and submit again once enhanced so our messages show instead.
  const held = new Set<HTMLFormElement>();
  document.addEventListener(
    'invalid',
    (event) => {
      const form = (event.target as Element | null)?.closest?.('form[data-inquiry-form]');
      if (ready || !(form instanceof HTMLFormElement)) return;
      event.preventDefault();
      if (held.has(form)) return;
      held.add(form);
      load().then(
        () => (held.delete(form), form.requestSubmit()),
        () => (held.delete(form), form.reportValidity()),
      );
    },
    true,
  );
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (ready || !(form instanceof HTMLFormElement) || !form.matches('[data-inquiry-form]')) return;
      event.preventDefault();
      load().then(
        () => form.requestSubmit(),
        () => form.submit(), // no enhancement: the plain post still delivers the inquiry
      );
    },
    true,
  );
}

/**
 * The gallery (product pages) and the slider (home) are the largest behaviours and the rarest: loaded
 * only where their markup is, they leave every other page, the search page first, a fifth lighter.
 */
function initWhereFound(): void {
  const failed = (what: string) => (err: unknown) => console.error(`site: the ${what} could not be enhanced`, err);
  if (document.querySelector('[data-gallery]')) import('./gallery.js').then((m) => m.initGalleries(), failed('gallery'));
  if (document.querySelector('[data-slider]')) import('./slider.js').then((m) => m.initSliders(), failed('slider'));
}

function start(): void {
  initOnlineFlag();
  const bar = initLoadingBar();
  initScroll();
  initMenus();
  initWhereFound();
  initShare();
  initPrefetch();
  initInquiryChoice();
  initInquiryList();
  initCtaBar();
  initFormsOnIntent(bar);
}

// A module script runs after parsing; guard anyway in case it is inlined or loaded early.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
