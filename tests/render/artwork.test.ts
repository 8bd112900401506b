import { describe, expect, test, vi } from 'vitest';
import { productArtwork, wrapWords } from '../../src/model/artwork.js';
import { createSiteModel } from '../../src/model/model.js';
import { ASSETS, fixtureCatalogue } from './fixture.js';
import { srcSetOf, variantsOf } from '../../src/core/images.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));

describe('productArtwork', () => {
  const catalogue = fixtureCatalogue();
  const model = createSiteModel(catalogue, ASSETS);
  const curcumin = catalogue.products[0];

  test('an SVG at /images/products/<slug>.svg with size, category colour, name and latin name', () => {
    const { url, svg } = productArtwork(model, curcumin);
    expect(url).toBe('/images/products/bulk-curcumin.svg');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="800" height="800" viewBox="0 0 800 800"/);
    expect(svg).toContain('fill="#f2d16b"'); // Monomer's colour
    expect(svg).toContain('>Bulk Curcumin</text>');
    expect(svg).toContain('font-style="italic" opacity="0.9">Curcuma longa</text>');
    // Light colour → dark ink for contrast.
    expect(svg).toContain('<g fill="#14201a"');
  });

  test('is deterministic', () => {
    expect(productArtwork(model, curcumin)).toEqual(productArtwork(createSiteModel(fixtureCatalogue(), ASSETS), curcumin));
  });

  test('escapes text for XML', () => {
    const { svg } = productArtwork(model, { ...curcumin, name: 'A <b> & "c"', latinName: "x'</svg>" });
    expect(svg).not.toContain('<b>');
    expect(svg).not.toContain("x'</svg>");
    expect(svg).toContain('A &#60;b&#62; &#38; &#34;c&#34;');
    expect(svg.match(/<\/svg>/g)?.length).toBe(1);
  });

  test('refuses slugs that would leave dist/images/products/', () => {
    for (const slug of ['../../etc/passwd', 'a/b', 'a\\b', '..', '']) {
      expect(() => productArtwork(model, { ...curcumin, slug })).toThrow(/cannot name a file/);
    }
  });

  test('wraps long names into at most four lines', () => {
    expect(wrapWords('Organic Hericium Erinaceus Extract Powder', 16, 4)).toEqual(['Organic Hericium', 'Erinaceus', 'Extract Powder']);
    expect(wrapWords('a b c d e f g h i j', 1, 2)).toEqual(['a', '…']);
  });
});

describe('smaller copies of a photograph of data/images/', () => {
  test('are WebP, named after the file, at each standard width under nine tenths of its own, of its shape', () => {
    expect(variantsOf({ url: '/images/photos/ginger.jpg', width: 1500, height: 1000 })).toEqual([
      { url: '/images/photos/ginger-320w.webp', width: 320, height: 213 },
      { url: '/images/photos/ginger-640w.webp', width: 640, height: 427 },
      { url: '/images/photos/ginger-960w.webp', width: 960, height: 640 },
      { url: '/images/photos/ginger-1280w.webp', width: 1280, height: 853 },
    ]);
    expect(variantsOf({ url: '/images/a.b.PNG', width: 4000, height: 10 }).map((v) => [v.url, v.height])).toEqual([
      ['/images/a.b-320w.webp', 1],
      ['/images/a.b-640w.webp', 2],
      ['/images/a.b-960w.webp', 2],
      ['/images/a.b-1280w.webp', 3],
    ]);
    expect(srcSetOf({ url: '/images/p.webp', width: 720, height: 720 })).toBe('/images/p-320w.webp 320w, /images/p-640w.webp 640w, /images/p.webp 720w');
    expect(srcSetOf({ url: '/images/p.webp', width: 700, height: 700 })).toBe('/images/p-320w.webp 320w, /images/p.webp 700w');
  });

  test('are not made of an SVG, a GIF, a file of unknown size or one too narrow to save anything', () => {
    for (const image of [
      { url: '/images/a.svg', width: 2000, height: 1000 },
      { url: '/images/a.gif', width: 2000, height: 1000 },
      { url: '/images/a.jpg' },
      { url: '/images/a.jpg', width: 350, height: 300 },
    ]) {
      expect(variantsOf(image), image.url).toEqual([]);
      expect(srcSetOf(image), image.url).toBeUndefined();
    }
  });
});
