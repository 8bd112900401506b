/**
 * Product gallery: thumbnails swap the main image; the main image zooms up to
 * `data-zoom-max` (spec: 3x) with the wheel, a pinch, buttons, +/- keys and
 * double-click, and pans by dragging while zoomed. Works the same for the
 * generated SVG artwork and for real photographs.
 */
import { ZOOM } from './constants.js';

export interface View {
  scale: number;
  x: number;
  y: number;
}

export const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));

/** Keeps the zoomed image covering its viewport: no empty band at any edge. */
export function clampView(view: View, width: number, height: number, max: number): View {
  const scale = clamp(view.scale, ZOOM.min, max);
  const limitX = ((scale - 1) * width) / 2;
  const limitY = ((scale - 1) * height) / 2;
  return { scale, x: clamp(view.x, -limitX, limitX), y: clamp(view.y, -limitY, limitY) };
}

/**
 * Zooms by `factor` keeping the point (px, py) — relative to the viewport's
 * centre — under the pointer, as maps and photo viewers do.
 */
export function zoomAt(view: View, factor: number, px: number, py: number, width: number, height: number, max: number): View {
  const scale = clamp(view.scale * factor, ZOOM.min, max);
  const k = scale / view.scale;
  return clampView({ scale, x: px - (px - view.x) * k, y: py - (py - view.y) * k }, width, height, max);
}

function button(label: string, action: string, text: string): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'gallery-zoom-button';
  b.dataset.zoomAction = action;
  b.setAttribute('aria-label', label);
  b.textContent = text;
  return b;
}

export function enhanceGallery(root: HTMLElement): void {
  const main = root.querySelector<HTMLImageElement>('img[data-gallery-main]');
  if (!main || root.dataset.enhanced === 'true') return;
  root.dataset.enhanced = 'true';
  const maxAttr = Number(root.dataset.zoomMax);
  const max = Number.isFinite(maxAttr) && maxAttr >= 1 ? maxAttr : ZOOM.max;

  // A viewport that clips the zoomed image; the markup's parent stays as it was.
  const viewport = document.createElement('div');
  viewport.className = 'gallery-viewport';
  viewport.tabIndex = 0;
  viewport.setAttribute('role', 'group');
  viewport.setAttribute('aria-label', 'Zoomable image: use + and − to zoom, arrow keys to move');
  main.replaceWith(viewport);
  viewport.append(main);
  main.draggable = false;

  const controls = document.createElement('div');
  controls.className = 'gallery-zoom';
  const zoomIn = button('Zoom in', 'in', '+');
  const zoomOut = button('Zoom out', 'out', '−');
  // The name holds the visible text: speech users say what they see (WCAG 2.5.3, Label in Name).
  const reset = button('Reset zoom to 1×', 'reset', '1×');
  controls.append(zoomOut, reset, zoomIn);
  viewport.after(controls);

  let view: View = { scale: 1, x: 0, y: 0 };
  const size = () => ({ w: viewport.clientWidth || 1, h: viewport.clientHeight || 1 });
  const apply = (next: View) => {
    // At 1x nothing needs measuring; reading the size then would force a layout at start-up.
    if (next.scale <= 1) view = { scale: 1, x: 0, y: 0 };
    else {
      const { w, h } = size();
      view = clampView(next, w, h, max);
    }
    main.style.transform = view.scale === 1 ? '' : `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
    // Zoomed, the copy picked for the page's width is too coarse: ask for one as wide as the zoomed image (browsers never trade down).
    if (view.scale > 1 && main.srcset) main.sizes = `${Math.ceil(size().w * max)}px`;
    root.dataset.zoom = view.scale.toFixed(2);
    viewport.classList.toggle('is-zoomed', view.scale > 1);
    zoomIn.disabled = view.scale >= max;
    zoomOut.disabled = reset.disabled = view.scale <= 1;
  };
  const zoomBy = (factor: number, px = 0, py = 0) => {
    const { w, h } = size();
    apply(zoomAt(view, factor, px, py, w, h, max));
  };
  /** Pointer position relative to the viewport's centre. */
  const fromCentre = (clientX: number, clientY: number) => {
    const r = viewport.getBoundingClientRect();
    return { px: clientX - r.left - r.width / 2, py: clientY - r.top - r.height / 2 };
  };

  zoomIn.addEventListener('click', () => zoomBy(ZOOM.step));
  zoomOut.addEventListener('click', () => zoomBy(1 / ZOOM.step));
  reset.addEventListener('click', () => apply({ scale: 1, x: 0, y: 0 }));

  viewport.addEventListener(
    'wheel',
    (event) => {
      // At 1x a plain wheel scrolls the page past the image; zooming starts
      // with ctrl+wheel (also what a touchpad pinch sends) and, once zoomed,
      // the wheel keeps zooming until back at 1x.
      if (!event.ctrlKey && view.scale <= 1) return;
      event.preventDefault();
      const { px, py } = fromCentre(event.clientX, event.clientY);
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      zoomBy(Math.exp(-delta * ZOOM.wheelPerPx * (event.ctrlKey ? 4 : 1)), px, py);
    },
    { passive: false },
  );

  viewport.addEventListener('dblclick', (event) => {
    const { px, py } = fromCentre(event.clientX, event.clientY);
    if (view.scale > 1) apply({ scale: 1, x: 0, y: 0 });
    else zoomBy(max, px, py);
  });

  viewport.addEventListener('keydown', (event) => {
    const pan = 40;
    const keys: Record<string, () => void> = {
      '+': () => zoomBy(ZOOM.step),
      '=': () => zoomBy(ZOOM.step),
      '-': () => zoomBy(1 / ZOOM.step),
      '0': () => apply({ scale: 1, x: 0, y: 0 }),
      ArrowLeft: () => apply({ ...view, x: view.x + pan }),
      ArrowRight: () => apply({ ...view, x: view.x - pan }),
      ArrowUp: () => apply({ ...view, y: view.y + pan }),
      ArrowDown: () => apply({ ...view, y: view.y - pan }),
    };
    const act = keys[event.key];
    // Arrows only pan a zoomed image; at 1x they scroll the page as usual.
    if (!act || (event.key.startsWith('Arrow') && view.scale <= 1)) return;
    event.preventDefault();
    act();
  });

  // Pointers: one drags (when zoomed), two pinch.
  const pointers = new Map<number, { x: number; y: number }>();
  let pinch: { distance: number; view: View } | null = null;
  let drag: { x: number; y: number; view: View } | null = null;
  const distance = () => {
    const [a, b] = Array.from(pointers.values());
    return Math.hypot(a.x - b.x, a.y - b.y) || 1;
  };
  viewport.addEventListener('pointerdown', (event) => {
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) {
      pinch = { distance: distance(), view };
      drag = null;
    } else if (pointers.size === 1 && view.scale > 1) {
      drag = { x: event.clientX, y: event.clientY, view };
      viewport.setPointerCapture(event.pointerId);
    }
  });
  viewport.addEventListener('pointermove', (event) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && pointers.size === 2) {
      const [a, b] = Array.from(pointers.values());
      const { px, py } = fromCentre((a.x + b.x) / 2, (a.y + b.y) / 2);
      const { w, h } = size();
      apply(zoomAt(pinch.view, distance() / pinch.distance, px, py, w, h, max));
    } else if (drag) {
      apply({ ...drag.view, x: drag.view.x + event.clientX - drag.x, y: drag.view.y + event.clientY - drag.y });
    }
  });
  const end = (event: PointerEvent) => {
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (pointers.size === 0) drag = null;
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);

  // Thumbnails swap the main image and start it unzoomed.
  const thumbs = Array.from(root.querySelectorAll<HTMLButtonElement>('[data-gallery-thumb]'));
  const select = (thumb: HTMLButtonElement) => {
    const src = thumb.dataset.src;
    if (!src) return;
    main.src = src;
    // A photograph's smaller copies come along; other images have none, and the last one's must not stay.
    if (thumb.dataset.srcset) main.srcset = thumb.dataset.srcset;
    else main.removeAttribute('srcset');
    main.alt = thumb.dataset.alt ?? main.alt;
    for (const t of thumbs) t.setAttribute('aria-pressed', String(t === thumb));
    apply({ scale: 1, x: 0, y: 0 });
  };
  for (const thumb of thumbs) {
    thumb.setAttribute('aria-pressed', String(thumb.dataset.src === main.getAttribute('src')));
    thumb.addEventListener('click', () => select(thumb));
  }

  apply(view);
}

export function initGalleries(doc: Document = document): void {
  for (const root of doc.querySelectorAll<HTMLElement>('[data-gallery]')) enhanceGallery(root);
}
