/**
 * Sliders on home and listing pages. Without JavaScript the track scrolls
 * horizontally and every slide is reachable; enhanced, one slide shows at a
 * time with prev/next, dots, arrow keys, swipe and autoplay. Autoplay pauses
 * while the pointer is over the slider, while focus is inside it and while the
 * tab is hidden, and never runs under prefers-reduced-motion (WCAG 2.2.2).
 */
import { SLIDER } from './constants.js';

/** Index after moving `delta` slides, wrapping at both ends. */
export const wrapIndex = (index: number, delta: number, count: number): number => (((index + delta) % count) + count) % count;

const readMs = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
};

export function enhanceSlider(root: HTMLElement, reducedMotion: boolean): void {
  const track = root.querySelector<HTMLElement>('.slider-track');
  const slides = Array.from(root.querySelectorAll<HTMLElement>('[data-slide]'));
  if (!track || slides.length === 0 || root.dataset.enhanced === 'true') return;
  const dots = Array.from(root.querySelectorAll<HTMLButtonElement>('[data-slider-dot]'));
  const autoplayMs = readMs(root.dataset.autoplay, SLIDER.autoplayMs);
  const transitionMs = reducedMotion ? 0 : readMs(root.dataset.transition, SLIDER.transitionMs);

  root.dataset.enhanced = 'true';
  root.style.setProperty('--slider-transition', `${transitionMs}ms`);
  if (!root.hasAttribute('aria-roledescription')) root.setAttribute('aria-roledescription', 'carousel');
  if (!root.hasAttribute('tabindex')) root.tabIndex = 0;
  slides.forEach((slide, i) => {
    slide.setAttribute('role', 'group');
    slide.setAttribute('aria-roledescription', 'slide');
    if (!slide.hasAttribute('aria-label')) slide.setAttribute('aria-label', `${i + 1} of ${slides.length}`);
  });

  let index = 0;
  const show = (next: number) => {
    index = wrapIndex(next, 0, slides.length);
    root.dataset.index = String(index);
    track.style.transform = `translateX(${-100 * index}%)`;
    slides.forEach((slide, i) => {
      // Hidden slides leave the tab order and the accessibility tree.
      slide.inert = i !== index;
      slide.setAttribute('aria-hidden', String(i !== index));
    });
    dots.forEach((dot) => {
      const current = Number(dot.dataset.sliderDot) === index;
      dot.setAttribute('aria-current', String(current));
    });
  };

  // Autoplay: one timer, restarted after every move so a manual step gets a full interval.
  const paused = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const autoplay = !reducedMotion && autoplayMs > 0 && slides.length > 1;
  const schedule = () => {
    clearTimeout(timer);
    timer = undefined;
    root.dataset.autoplayState = autoplay ? (paused.size === 0 ? 'running' : 'paused') : 'off';
    if (autoplay && paused.size === 0) timer = setTimeout(() => go(index + 1), autoplayMs);
  };
  const go = (next: number) => {
    show(next);
    schedule();
  };
  const pause = (why: string) => {
    paused.add(why);
    schedule();
  };
  const resume = (why: string) => {
    if (paused.delete(why)) schedule();
  };

  root.querySelector('[data-slider-prev]')?.addEventListener('click', () => go(index - 1));
  root.querySelector('[data-slider-next]')?.addEventListener('click', () => go(index + 1));
  for (const dot of dots) dot.addEventListener('click', () => go(Number(dot.dataset.sliderDot)));

  root.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      go(index + (event.key === 'ArrowRight' ? 1 : -1));
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      go(event.key === 'Home' ? 0 : slides.length - 1);
    }
  });

  root.addEventListener('pointerenter', (event) => event.pointerType === 'mouse' && pause('hover'));
  root.addEventListener('pointerleave', () => resume('hover'));
  root.addEventListener('focusin', () => pause('focus'));
  root.addEventListener('focusout', (event) => {
    if (!root.contains(event.relatedTarget as Node | null)) resume('focus');
  });
  document.addEventListener('visibilitychange', () => (document.hidden ? pause('hidden') : resume('hidden')));

  // Swipe: touch and pen only; a mouse drag would fight text selection.
  let startX: number | null = null;
  track.addEventListener('pointerdown', (event) => {
    if (event.pointerType !== 'mouse') startX = event.clientX;
  });
  track.addEventListener('pointerup', (event) => {
    if (startX === null) return;
    const dx = event.clientX - startX;
    startX = null;
    if (Math.abs(dx) >= SLIDER.swipePx) go(index + (dx < 0 ? 1 : -1));
  });
  track.addEventListener('pointercancel', () => (startX = null));

  show(0);
  schedule();
}

export function initSliders(doc: Document = document): void {
  const roots = doc.querySelectorAll<HTMLElement>('[data-slider]');
  if (roots.length === 0) return;
  const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  for (const root of roots) enhanceSlider(root, reducedMotion);
}
