import { load } from 'cheerio';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test, vi } from 'vitest';
import { INQUIRY_TYPES } from '../../src/core/inquiry.js';
import { Breadcrumbs } from '../../src/templates/Breadcrumbs.js';
import { Gallery } from '../../src/templates/Gallery.js';
import { createSiteModel } from '../../src/model/model.js';
import { ASSETS, fixtureCatalogue } from '../render/fixture.js';
import { Inquire } from '../../src/templates/Inquire.js';
import { InquireSecond } from '../../src/templates/InquireSecond.js';
import { compactMask, milestoneSteps, Pagination, pageWindow } from '../../src/templates/Pagination.js';
import { Share } from '../../src/templates/Share.js';
import { Slider } from '../../src/templates/Slider.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('../render/jsx-dev-shim.js'));

const html = (el: React.ReactElement) => renderToStaticMarkup(el);
const FIELDS = ['name', 'email', 'company', 'country', 'phone', 'product', 'type', 'quantity', 'message'];

describe('Pagination', () => {
  const pages = [1, 2, 3].map((page) => ({ page, path: page === 1 ? '/x' : `/x/page-${page}` }));
  test('middle page links both ways with rel', () => {
    expect(html(<Pagination pages={pages} current={2} />)).toMatchInlineSnapshot(
      `"<nav class="pagination" aria-label="Pagination"><a href="/x" rel="prev" class="page-step">← Previous</a><ol><li><a href="/x" aria-label="Page 1">1</a></li><li><span aria-current="page">2</span></li><li><a href="/x/page-3" aria-label="Page 3">3</a></li></ol><a href="/x/page-3" rel="next" class="page-step">Next →</a></nav>"`,
    );
  });
  test('a single page needs no pagination', () => {
    expect(html(<Pagination pages={[{ page: 1, path: '/x' }]} current={1} />)).toBe('');
  });
  test('long lists show a window with gaps', () => {
    expect(
      pageWindow(
        Array.from({ length: 72 }, (_, i) => i + 1),
        30,
      ),
    ).toEqual([1, 0, 5, 0, 10, 0, 15, 0, 20, 0, 25, 0, 28, 29, 30, 31, 32, 0, 35, 0, 40, 0, 45, 0, 50, 0, 55, 0, 60, 0, 65, 0, 70, 71, 72]);
    // No gap stands for a single page: 3 … 5 shows 4, 5 … 7 shows 6.
    expect(pageWindow([1, 2, 3, 4, 5, 6, 7], 1)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(pageWindow([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], 1)).toEqual([1, 2, 3, 4, 5, 0, 10, 11, 12]);
    // Unless that page number was never declared: 3 … 5 keeps its marker (there is no 4), 5 … 7 shows 6.
    expect(pageWindow([1, 2, 3, 5, 6, 7], 1)).toEqual([1, 2, 3, 0, 5, 6, 7]);
  });
  test("on a phone a long list shows first, last, the current page's neighbours and one gap between", () => {
    const phone = (pages: number[], current: number) => {
      const shown = pageWindow(pages, current);
      const mask = compactMask(shown, current);
      return shown.filter((_, i) => !mask[i]);
    };
    const upTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
    expect(phone(upTo(72), 30)).toEqual([1, 0, 28, 29, 30, 31, 32, 0, 72]);
    expect(phone(upTo(72), 1)).toEqual([1, 2, 3, 0, 72]);
    expect(phone(upTo(72), 4)).toEqual([1, 2, 3, 4, 5, 6, 0, 72]);
    expect(phone(upTo(72), 71)).toEqual([1, 0, 69, 70, 71, 72]);
    expect(phone(upTo(7), 4)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(phone([1, 2, 3, 5, 6, 7, 8, 9, 10], 1)).toEqual([1, 2, 3, 0, 10]);
    for (const count of [2, 6, 12, 72, 150, 1_000, 7_000]) {
      const pages = upTo(count);
      for (const current of new Set([1, 2, 3, 5, 8, Math.ceil(count / 2), count - 2, count - 1, count].filter((n) => n >= 1 && n <= count))) {
        const seen = phone(pages, current);
        const numbers = seen.filter((n) => n !== 0);
        const where = `${count} pages, current ${current}: ${seen.join(' ')}`;
        // First, last and the current page's neighbours are there; nothing else but what stands between them.
        for (const n of [1, count, current - 2, current - 1, current, current + 1, current + 2]) if (n >= 1 && n <= count) expect(numbers, where).toContain(n);
        // Nine items, or a few more where the pages between are all shown with no gap to stand for them (12 pages, page 6: 9 10 11).
        expect(seen.length, where).toBeLessThanOrEqual(count <= 20 ? 11 : 9);
        // Every skipped page is marked: two shown numbers side by side are neighbours, and no two gaps meet.
        for (let i = 1; i < seen.length; i++) {
          if (seen[i] !== 0 && seen[i - 1] !== 0) expect(seen[i] - seen[i - 1], where).toBe(1);
          expect(seen[i] === 0 && seen[i - 1] === 0, where).toBe(false);
        }
      }
    }
    // The markup: the left-out items carry page-extra (hidden below 40rem by styles.css), the rest do not.
    const pages = upTo(72).map((page) => ({ page, path: page === 1 ? '/x' : `/x/page-${page}` }));
    const markup = html(<Pagination pages={pages} current={30} />);
    const items = [...markup.matchAll(/<li( class="([^"]*)")?[^>]*>(.*?)<\/li>/g)].map((m) => ({
      extra: (m[2] ?? '').split(' ').includes('page-extra'),
      text: m[3].replace(/<[^>]+>/g, ''),
    }));
    expect(items.filter((i) => !i.extra).map((i) => i.text)).toEqual(['1', '…', '28', '29', '30', '31', '32', '…', '72']);
    expect(items.filter((i) => i.extra).length).toBe(pageWindow(upTo(72), 30).length - 9);
  });
  /** Clicks from the first page to each page, following the page links. */
  function depths(count: number): Map<number, number> {
    const pages = Array.from({ length: count }, (_, i) => i + 1);
    const depth = new Map([[1, 0]]);
    for (let frontier = [1]; frontier.length > 0; ) {
      const next: number[] = [];
      for (const p of frontier)
        for (const n of pageWindow(pages, p))
          if (n !== 0 && !depth.has(n)) {
            depth.set(n, depth.get(p)! + 1);
            next.push(n);
          }
      frontier = next;
    }
    return depth;
  }
  test('every page of a long list is within two clicks of its first page', () => {
    const depth = depths(72);
    expect(depth.size).toBe(72);
    expect(Math.max(...depth.values())).toBeLessThanOrEqual(2);
  });
  test('shows exactly the pages its definition names, for lists of every length, with and without missing page numbers', () => {
    // The definition: every page that is first, last, within two of the current one, or a milestone of a tier.
    const reference = (pages: number[], current: number): number[] => {
      const steps = milestoneSteps(pages.length);
      const milestone = (n: number) =>
        steps.some((step, k) => n % step === 0 && (k === 0 || Math.floor(n / steps[k - 1]) === Math.floor(current / steps[k - 1])));
      const out: number[] = [];
      for (const n of pages.filter((n, i) => i === 0 || i === pages.length - 1 || Math.abs(n - current) <= 2 || milestone(n))) {
        if (out.length > 0 && n - out[out.length - 1] > 1) out.push(0);
        out.push(n);
      }
      // A gap between two shown pages that hides exactly one declared page shows that page instead.
      return out.flatMap((n, i) => (n === 0 && out[i + 1] - out[i - 1] === 2 && pages.includes(out[i - 1] + 1) ? [out[i - 1] + 1] : [n]));
    };
    for (const count of [1, 2, 3, 7, 20, 99, 100, 101, 250, 1_001, 7_000]) {
      const whole = Array.from({ length: count }, (_, i) => i + 1);
      const holed = whole.filter((n) => n === 1 || n % 7 !== 3); // some page numbers never declared
      for (const pages of [whole, holed]) {
        for (const current of new Set([pages[0], pages[1] ?? 1, pages[Math.floor(pages.length / 2)], pages[pages.length - 1], 3, 417])) {
          expect(pageWindow(pages, current), `${count} pages, current ${current}`).toEqual(reference(pages, current));
        }
      }
    }
  });

  test('a list of thousands of pages links a few dozen of them from each page, and every page stays a few clicks deep', () => {
    expect(milestoneSteps(100)).toEqual([5]);
    expect(milestoneSteps(101)).toEqual([50, 5]);
    expect(milestoneSteps(7_000)).toEqual([500, 50, 5]);
    const pages = Array.from({ length: 7_000 }, (_, i) => i + 1);
    for (const current of [1, 2, 3_417, 6_999, 7_000]) {
      const links = pageWindow(pages, current).filter((n) => n !== 0);
      expect(links.length, `page ${current}`).toBeLessThanOrEqual(50);
      expect(links).toContain(current);
      expect(links).toContain(7_000);
    }
    expect(pageWindow(pages, 3_417).filter((n) => n !== 0)).toEqual([
      1, 500, 1000, 1500, 2000, 2500, 3000, 3050, 3100, 3150, 3200, 3250, 3300, 3350, 3400, 3405, 3410, 3415, 3416, 3417, 3418, 3419, 3420, 3425, 3430, 3435,
      3440, 3445, 3450, 3500, 4000, 4500, 5000, 5500, 6000, 6500, 7000,
    ]);
    const depth = depths(7_000);
    expect(depth.size).toBe(7_000);
    expect(Math.max(...depth.values())).toBeLessThanOrEqual(6);
  });
});

describe('Breadcrumbs', () => {
  test('links every step but the current page', () => {
    expect(
      html(
        <Breadcrumbs
          crumbs={[
            { name: 'Home', path: '/' },
            { name: 'Monomer', path: '/monomer' },
            { name: 'Bulk <Curcumin>', path: '/monomer/bulk-curcumin' },
          ]}
        />,
      ),
    ).toMatchInlineSnapshot(
      `"<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/">Home</a></li><li><a href="/monomer">Monomer</a></li><li aria-current="page">Bulk &lt;Curcumin&gt;</li></ol></nav>"`,
    );
  });
  test('no trail, no markup', () => {
    expect(html(<Breadcrumbs crumbs={[]} />)).toBe('');
  });
});

describe('inquiry forms follow the markup contract', () => {
  const check = (markup: string, formId: string, page: string) => {
    const $ = load(markup);
    const form = $(`form#${formId}`);
    expect(form.attr('class')).toContain('inquiry-form');
    expect(form.attr('data-inquiry-form')).toBe('');
    expect(form.attr('action')).toBe('/api/inquiry');
    expect(form.attr('method')).toBe('post');
    for (const name of FIELDS) {
      const field = form.find(`div.field[data-field="${name}"]`);
      expect(field.length, name).toBe(1);
      const control = field.find(`[name="${name}"]`);
      expect(control.attr('id')).toBe(`${formId}-${name}`);
      expect(field.find(`label[for="${formId}-${name}"]`).length).toBe(1);
      const error = field.find(`p.field-error#${formId}-${name}-error`);
      expect(error.attr('data-error-for')).toBe(name);
      expect(error.attr('hidden')).toBeDefined();
      expect(control.attr('aria-describedby')).toBe(`${formId}-${name}-error`);
    }
    expect(form.find('input[type="hidden"][name="page"]').attr('value')).toBe(page);
    expect(form.find('input[type="hidden"][name="_started"]').attr('value')).toBe('');
    const hp = form.find('div.hp[aria-hidden="true"] label input[name="website"]');
    expect(hp.attr('tabindex')).toBe('-1');
    expect(hp.attr('autocomplete')).toBe('off');
    expect(form.find('p.form-status[data-form-status][role="status"][aria-live="polite"]').length).toBe(1);
    expect(
      form
        .find('select[name="type"] option')
        .toArray()
        .map((o) => $(o).attr('value')),
    ).toEqual([...INQUIRY_TYPES]);
    // Never empty, so no placeholder option: HTML then forbids `required` on it; assistive technology still hears "required".
    const type = form.find('select[name="type"]');
    expect(type.attr('required')).toBeUndefined();
    expect(type.attr('aria-required')).toBe('true');
    return form;
  };
  test('Inquire on a product page has the product filled in and quote preselected', () => {
    const form = check(
      html(<Inquire action="/api/inquiry" page="/monomer/bulk-curcumin" product="Bulk Curcumin" type="quote" />),
      'inquire',
      '/monomer/bulk-curcumin',
    );
    expect(form.find('input[name="product"]').attr('value')).toBe('Bulk Curcumin');
    expect(form.find('option[selected]').attr('value')).toBe('quote');
  });
  test('InquireSecond has its own ids and bulk and wholesale preselected', () => {
    const form = check(html(<InquireSecond action="/api/inquiry" page="/knowledge" />), 'inquire-second', '/knowledge');
    expect(form.find('option[selected]').attr('value')).toBe('bulk-wholesale');
  });
});

describe('Share', () => {
  test('plain links for every network and a hidden copy button', () => {
    const $ = load(html(<Share url="https://www.example.com/a b" title="A & B" />));
    const links = Object.fromEntries(
      $('[data-share] a')
        .toArray()
        .map((a) => [$(a).attr('data-share-network'), $(a).attr('href')]),
    );
    expect(links).toEqual({
      linkedin: 'https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fwww.example.com%2Fa%20b',
      facebook: 'https://www.facebook.com/sharer/sharer.php?u=https%3A%2F%2Fwww.example.com%2Fa%20b',
      x: 'https://x.com/intent/tweet?url=https%3A%2F%2Fwww.example.com%2Fa%20b&text=A%20%26%20B',
      whatsapp: 'https://wa.me/?text=A%20%26%20B%20https%3A%2F%2Fwww.example.com%2Fa%20b',
      email: 'mailto:?subject=A%20%26%20B&body=https%3A%2F%2Fwww.example.com%2Fa%20b',
    });
    const copy = $('button[data-share-copy]');
    expect(copy.attr('data-url')).toBe('https://www.example.com/a b');
    expect(copy.attr('hidden')).toBeDefined();
    expect(copy.attr('type')).toBe('button');
    expect($('[data-share-print]').length).toBe(0);
  });
  test('with print (product pages), a hidden print button the client shows', () => {
    const $ = load(html(<Share url="https://www.example.com/p" title="P" print />));
    const print = $('button[data-share-print]');
    expect(print.text()).toBe('Print spec sheet');
    expect(print.attr('type')).toBe('button');
    expect(print.attr('hidden')).toBeDefined();
    // A cached Share without print does not lend its markup to one with it, nor the other way round.
    expect(load(html(<Share url="https://www.example.com/q" title="Q" />))('[data-share-print]').length).toBe(0);
  });
});

describe('Slider and Gallery', () => {
  test('slider markup with prev, next and one dot per slide', () => {
    const $ = load(html(<Slider label="Highlights" slides={[<p key="a">A</p>, <p key="b">B</p>]} />));
    const slider = $('div.slider[data-slider]');
    expect(slider.attr('data-autoplay')).toBe('3000');
    expect(slider.attr('data-transition')).toBe('300');
    expect(slider.find('.slider-track > .slide[data-slide]').length).toBe(2);
    expect(slider.find('button[type="button"][data-slider-prev]').length).toBe(1);
    expect(slider.find('button[type="button"][data-slider-next]').length).toBe(1);
    expect(
      slider
        .find('button[data-slider-dot]')
        .toArray()
        .map((b) => $(b).attr('data-slider-dot')),
    ).toEqual(['0', '1']);
  });
  test('gallery with a main image and thumbnails; a photograph of data/images/ names its copies', () => {
    // /b.jpg is a 1200×800 photograph of data/images/; /a.svg is not one.
    const photo = { url: '/b.jpg', file: 'data/images/b.jpg', path: '/data/images/b.jpg', size: 1, digest: 'd', width: 1200, height: 800 };
    const model = createSiteModel({ ...fixtureCatalogue(), images: [photo] }, ASSETS);
    const $ = load(
      html(
        <Gallery
          model={model}
          images={[
            { url: '/a.svg', width: 800, height: 800, alt: 'A' },
            { url: '/b.jpg', width: 600, height: 400, alt: 'B' },
          ]}
        />,
      ),
    );
    expect($('div.gallery[data-gallery]').attr('data-zoom-max')).toBe('3');
    expect($('img[data-gallery-main]').attr('src')).toBe('/a.svg');
    const thumbs = $('button[type="button"][data-gallery-thumb]');
    expect(thumbs.length).toBe(2);
    expect(thumbs.eq(1).attr('data-src')).toBe('/b.jpg');
    expect(thumbs.eq(1).attr('data-alt')).toBe('B');
    // The artwork has no copies; the photo's thumbnail and its button carry them.
    expect($('img[data-gallery-main]').attr('srcset')).toBeUndefined();
    expect(thumbs.eq(0).attr('data-srcset')).toBeUndefined();
    const srcset = '/b-320w.webp 320w, /b-640w.webp 640w, /b-960w.webp 960w, /b.jpg 1200w';
    expect(thumbs.eq(1).attr('data-srcset')).toBe(srcset);
    expect([thumbs.eq(1).find('img').attr('srcset'), thumbs.eq(1).find('img').attr('sizes')]).toEqual([srcset, '4.5rem']);
  });
});
