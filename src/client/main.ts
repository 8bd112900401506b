/**
 * Progressive enhancement of every page. Each behaviour finds its markup (see
 * docs/CONTRACTS.md, "Markup the browser code relies on") and does nothing
 * when it is absent, so one small bundle serves every screen. The inquiry
 * forms and their zod schema load as a separate chunk, only where a form is
 * (or an offline submission waits to be sent).
 */
import { loadChunk } from './chunk.js';
import { STORAGE } from './constants.js';
import { initGalleries } from './gallery.js';
import { initLoadingBar } from './loading-bar.js';
import { initOnlineFlag } from './network.js';
import { initPrefetch } from './prefetch.js';
import { initScroll } from './scroll.js';
import { initShare } from './share.js';
import { initSliders } from './slider.js';

function hasQueuedInquiries(): boolean {
  try {
    return (localStorage.getItem(STORAGE.outbox) ?? '[]') !== '[]';
  } catch {
    return false;
  }
}

function start(): void {
  initOnlineFlag();
  const bar = initLoadingBar();
  initScroll();
  initSliders();
  initGalleries();
  initShare();
  initPrefetch();
  if (document.querySelector('[data-inquiry-form]') || hasQueuedInquiries()) {
    loadChunk(() => import('./forms.js'))
      .then((forms) => forms.initForms(document, bar))
      .catch((err: unknown) => {
        // The forms still post without JavaScript; only the enhancement is lost.
        console.error('site: inquiry forms could not be enhanced', err);
      });
  }
}

// A module script runs after parsing; guard anyway in case it is inlined or loaded early.
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
