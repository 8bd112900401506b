/** The browser code's pure parts, without a browser. */
import { describe, expect, it } from 'vitest';
import { claimReload } from '../../src/client/chunk.js';
import { LOADING_BAR, ZOOM } from '../../src/client/constants.js';
import { validateInquiry } from '../../src/client/forms.js';
import { clampView, zoomAt } from '../../src/client/gallery.js';
import { progressAt } from '../../src/client/loading-bar.js';
import { canSpeculate } from '../../src/client/network.js';
import { processTerm, tokenize } from '../../src/core/search-options.js';
import { wrapIndex } from '../../src/client/slider.js';
import { highlight, snippetWindow } from '../../src/client/snippet.js';

describe('slider', () => {
  it('wraps at both ends', () => {
    expect(wrapIndex(2, 1, 3)).toBe(0);
    expect(wrapIndex(0, -1, 3)).toBe(2);
    expect(wrapIndex(1, 0, 3)).toBe(1);
    expect(wrapIndex(0, -7, 3)).toBe(2);
  });
});

describe('gallery zoom', () => {
  it('clamps the scale to [1, max] and the pan so no edge shows', () => {
    expect(clampView({ scale: 5, x: 0, y: 0 }, 400, 400, 3).scale).toBe(3);
    expect(clampView({ scale: 0.2, x: 50, y: 50 }, 400, 400, 3)).toEqual({ scale: 1, x: 0, y: 0 });
    expect(clampView({ scale: 2, x: 999, y: -999 }, 400, 300, 3)).toEqual({ scale: 2, x: 200, y: -150 });
  });
  it('keeps the point under the pointer still', () => {
    const v = zoomAt({ scale: 1, x: 0, y: 0 }, 2, 100, 0, 400, 400, ZOOM.max);
    expect(v.scale).toBe(2);
    // The point 100 px right of centre stays 100 px right of centre: x = px - px * k.
    expect(v.x).toBe(-100);
    expect(zoomAt(v, 10, 0, 0, 400, 400, ZOOM.max).scale).toBe(ZOOM.max);
  });
});

describe('loading bar', () => {
  it('creeps to 90% over the duration and waits there', () => {
    expect(progressAt(0)).toBe(0);
    expect(progressAt(LOADING_BAR.durationMs / 2)).toBeCloseTo(0.45);
    expect(progressAt(LOADING_BAR.durationMs * 3)).toBe(0.9);
  });
});

describe('chunk reload guard', () => {
  const memory = () => {
    const m = new Map<string, string>();
    return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
  };
  it('allows one reload per 60 s', () => {
    const s = memory();
    expect(claimReload(s, 1_000_000)).toBe(true);
    expect(claimReload(s, 1_000_000 + 59_999)).toBe(false);
    expect(claimReload(s, 1_000_000 + 60_000)).toBe(true);
  });
  it('never reloads when storage is unusable', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => undefined,
    };
    expect(claimReload(broken, 5)).toBe(false);
  });
});

describe('connection', () => {
  const nav = (onLine: boolean, connection?: object) => ({ onLine, connection }) as unknown as Navigator;
  it('speculates only online, off 2g and without data saver', () => {
    expect(canSpeculate(nav(true))).toBe(true);
    expect(canSpeculate(nav(false))).toBe(false);
    expect(canSpeculate(nav(true, { effectiveType: '2g' }))).toBe(false);
    expect(canSpeculate(nav(true, { effectiveType: 'slow-2g' }))).toBe(false);
    expect(canSpeculate(nav(true, { effectiveType: '3g' }))).toBe(true);
    expect(canSpeculate(nav(true, { effectiveType: '4g', saveData: true }))).toBe(false);
  });
});

describe('inquiry validation (the shared zod schema)', () => {
  const valid = { name: 'Jane', email: 'jane@example.com', type: 'quote', message: 'Please quote 25 kg.' };
  it('accepts a complete inquiry and ignores the form machinery', () => {
    expect(validateInquiry({ ...valid, page: '/x', _started: '1', website: '' })).toEqual({});
  });
  it('gives one message per field, as the server words it', () => {
    const errors = validateInquiry({ name: ' ', email: 'nope', type: '', message: 'short', phone: 'abc' });
    expect(Object.keys(errors).sort()).toEqual(['email', 'message', 'name', 'phone', 'type']);
    expect(errors.name).toBe('Please enter your name.');
    expect(errors.type).toBe('Please choose what you would like to ask for.');
  });
});

describe('search text', () => {
  it('tokenizes on anything but letters and digits, folds case and accents, drops stop words', () => {
    expect(tokenize('L-Arginine HCl, 98%!')).toEqual(['L', 'Arginine', 'HCl', '98']);
    expect(processTerm('Açaí')).toBe('acai');
    expect(processTerm('the')).toBeNull();
  });
  it('highlights matched words as segments, never as markup', () => {
    const segs = highlight('Curcumin <b>95%</b> from turmeric', new Set(['curcumin', 'turmeric']));
    expect(segs).toEqual([
      { text: 'Curcumin', mark: true },
      { text: ' <b>95%</b> from ', mark: false },
      { text: 'turmeric', mark: true },
    ]);
  });
  it('cuts a window around the first match, at spaces, with ellipses', () => {
    const text = `${'lorem ipsum '.repeat(30)}berberine is here ${'dolor sit '.repeat(30)}`;
    const w = snippetWindow(text, new Set(['berberine']), 80);
    expect(w.startsWith('…')).toBe(true);
    expect(w.endsWith('…')).toBe(true);
    expect(w).toContain('berberine');
    expect(w.length).toBeLessThanOrEqual(82);
    expect(snippetWindow('short text', new Set(['x']), 80)).toBe('short text');
  });
});
