/**
 * `site build` end to end: the fixture catalogue tests/fixtures/build-small
 * (3 categories incl. an empty one, 3 products, a duplicate route, paged
 * lists, 3 articles incl. one with script-like text, 1 news item, every page
 * kind) built by the real CLI into fresh folders.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { load } from 'cheerio/slim';
import { imageSize } from 'image-size';
import { beforeAll, describe, expect, test } from 'vitest';
import { checkDataDir } from '../../src/check/run.js';
import { defaultClientDir, readAssetRefs } from '../../src/emit/files/assets.js';
import { extractLinks, pageTargets, resolveReferences } from '../../src/emit/links/scan.js';
import { extractLinksWithCheerio } from './links-reference.js';
import { build, buildWithRenderer, hook, listFiles, requireCompiled, ROOT, site, SMALL, snapshot, workDir } from './helpers.js';

const ORIGIN = 'https://www.example.com';
const ROUTES = [
  '/',
  '/products',
  '/products/page-1',
  '/products/page-2',
  '/herb-extract',
  '/herb-extract/page-1',
  '/herb-extract/page-2',
  '/api',
  '/herb-extract/bulk-curcumin',
  '/herb-extract/ginger-extract',
  '/herb-extract/berberine-powder-bulk',
  '/about-us',
  '/knowledge',
  '/knowledge/page-1',
  '/knowledge/page-2',
  '/knowledge/what-is-curcumin',
  '/knowledge/ginger-dosage-guide',
  '/knowledge/script-injection-test',
  '/news',
  '/news/page-1',
  '/news/exhibition-2024',
  '/contact-us',
  '/search',
  '/search/404',
  '/thanks',
];
const pageFile = (route: string) => (route === '/' ? 'index.html' : `${route.slice(1)}/index.html`);
/** A page's second name, beside its folder (see twinFileOf): every route but the home page has one. */
const twinFile = (route: string) => `${route.slice(1)}.html`;
const SUMMARY_OK = /^site build: 27 pages written to \S+ in \d+\.\d\d s · 2 warnings · links: [\d,]+ checked, 0 broken\n$/;

function clientAssets(): string[] {
  return readdirSync(path.join(ROOT, 'build/client/assets')).map((f) => `assets/${f}`);
}

/** Every date that occurs in the fixture's content: lastmod must be one of them, never the build's own date. */
function contentDates(): Set<string> {
  const dates = new Set<string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, name.name);
      if (name.isDirectory()) walk(full);
      else for (const m of readFileSync(full, 'utf8').matchAll(/"(\d{4}-\d{2}-\d{2})"/g)) dates.add(m[1]);
    }
  };
  walk(SMALL);
  return dates;
}

/** A writable copy of the fixture with one file changed. */
function variant(file: string, edit: (json: any) => void): string {
  const dir = path.join(workDir(), 'data');
  cpSync(SMALL, dir, { recursive: true });
  const target = path.join(dir, file);
  const json = JSON.parse(readFileSync(target, 'utf8'));
  edit(json);
  writeFileSync(target, JSON.stringify(json, null, 2));
  return dir;
}

/** Temporary folders left beside dist/ (the spare, the previous output kept for the next build, is expected). */
const noTempLeft = (work: string) => readdirSync(work).filter((n) => n.startsWith('.dist-') && n !== '.dist-spare');

let work: string;
let dist: string;
let first: Awaited<ReturnType<typeof build>>;

beforeAll(async () => {
  requireCompiled();
  work = workDir();
  dist = path.join(work, 'dist');
  first = await build(work);
});

describe('a successful build', () => {
  test('exits 0 with one summary line on stdout', () => {
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(SUMMARY_OK);
  });

  test('writes exactly the expected files: a page per route (a duplicate once) and its .html twin, 404, artwork, logo, assets, search index, sitemap, robots, _headers', () => {
    const files = listFiles(dist);
    const search = files.filter((f) => f.startsWith('search/') && f.endsWith('.json'));
    expect(search).toHaveLength(2);
    expect(search).toContain('search/entry.json');
    const expected = [
      ...ROUTES.map(pageFile),
      ...ROUTES.filter((r) => r !== '/').map(twinFile),
      '404.html',
      '500.html',
      'images/products/berberine-powder-bulk.svg',
      'images/products/bulk-curcumin.svg',
      'images/products/ginger-extract.svg',
      'images/logo.svg',
      'images/photos/ginger-powder-320w.webp',
      'images/photos/ginger-powder-640w.webp',
      'images/photos/ginger-powder.png',
      'images/photos/ginger-root-320w.webp',
      'images/photos/ginger-root-640w.webp',
      'images/photos/ginger-root.png',
      'images/share.png',
      ...clientAssets(),
      ...search,
      'robots.txt',
      'sitemap.xml',
      '_headers',
    ].sort();
    expect(files).toEqual(expected);
    for (const route of ROUTES) {
      const html = readFileSync(path.join(dist, pageFile(route)), 'utf8');
      expect(html.startsWith('<!doctype html>'), route).toBe(true);
      expect(load(html)('link[rel=canonical]').attr('href'), route).toMatch(new RegExp(`^${ORIGIN}/`));
    }
    // A twin is the page itself under its second name: one file, two links.
    for (const route of ROUTES.filter((r) => r !== '/')) {
      const [page, twin] = [statSync(path.join(dist, pageFile(route))), statSync(path.join(dist, twinFile(route)))];
      expect([twin.ino, twin.nlink], route).toEqual([page.ino, 2]);
    }
    expect(readFileSync(path.join(dist, 'images/products/bulk-curcumin.svg'), 'utf8')).toContain('<svg');
    expect(readFileSync(path.join(dist, 'images/logo.svg'), 'utf8')).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="512" height="512"/);
    // The share card: a PNG (signature, then the IHDR chunk's width and height) of the size the pages announce.
    const card = readFileSync(path.join(dist, 'images/share.png'));
    expect(card.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    expect([card.readUInt32BE(16), card.readUInt32BE(20)]).toEqual([1200, 630]);
    expect(load(readFileSync(path.join(dist, pageFile(ROUTES[0])), 'utf8'))('meta[property="og:image"]').attr('content')).toBe(`${ORIGIN}/images/share.png`);
    expect(noTempLeft(work)).toEqual([]);
  });

  test('publishes the files of data/images/ as they are, and the product that names one shows it', () => {
    const photo = 'images/photos/ginger-powder.png';
    expect(readFileSync(path.join(dist, photo)).equals(readFileSync(path.join(SMALL, photo)))).toBe(true);
    // The 1000×750 photo gets WebP copies 320 and 640 pixels wide, of its shape (960 would save too little).
    for (const [w, h] of [
      [320, 240],
      [640, 480],
    ]) {
      const copy = readFileSync(path.join(dist, `images/photos/ginger-powder-${w}w.webp`));
      expect([copy.toString('latin1', 0, 4), copy.toString('latin1', 8, 12)]).toEqual(['RIFF', 'WEBP']);
      expect(imageSize(copy)).toMatchObject({ type: 'webp', width: w, height: h });
    }
    const $ = load(readFileSync(path.join(dist, pageFile('/herb-extract/ginger-extract')), 'utf8'));
    const srcset = '/images/photos/ginger-powder-320w.webp 320w, /images/photos/ginger-powder-640w.webp 640w, /images/photos/ginger-powder.png 1000w';
    expect($('[data-gallery-main]').attr('src')).toBe(`/${photo}`);
    expect($('[data-gallery-main]').attr('srcset')).toBe(srcset);
    expect($('[data-gallery-main]').attr('sizes')).toBe('(min-width: 72rem) 31rem, (min-width: 48rem) 45vw, 100vw');
    expect([$('[data-gallery-main]').attr('width'), $('[data-gallery-main]').attr('alt')]).toEqual(['1000', 'Ginger extract powder in a glass dish']);
    // A raster image of its own: the social preview is the photo, not the share card.
    expect($('meta[property="og:image"]').attr('content')).toBe(`${ORIGIN}/${photo}`);
    // The sitemap lists the product's photos (Google's image extension) with its page, and only there.
    const sitemap = readFileSync(path.join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"');
    const ginger = sitemap.match(/<url><loc>[^<]*\/herb-extract\/ginger-extract<\/loc>.*?<\/url>/)![0];
    expect([...ginger.matchAll(/<image:loc>([^<]+)<\/image:loc>/g)].map((m) => m[1])).toEqual([
      `${ORIGIN}/${photo}`,
      `${ORIGIN}/images/photos/ginger-root.png`,
    ]);
    expect(sitemap.match(/<image:loc>/g)).toHaveLength(2);
    // The structured data names every photo of the product.
    const product = $('script[type="application/ld+json"]')
      .toArray()
      .map((el) => JSON.parse($(el).text()))
      .find((d) => d['@type'] === 'Product');
    expect(product.image).toEqual([`${ORIGIN}/${photo}`, `${ORIGIN}/images/photos/ginger-root.png`]);
    // Its card on the category list shows the photo too, not the generated artwork.
    const list = load(readFileSync(path.join(dist, pageFile('/herb-extract/page-2')), 'utf8'));
    const card = list(`.product-card a[href="/herb-extract/ginger-extract"] img`);
    expect([card.attr('src'), card.attr('srcset'), card.attr('sizes')]).toEqual([`/${photo}`, srcset, '(max-width: 40rem) 6rem, 22rem']);
    // The link check reads srcset: the build's 0 broken links include the copies.
    const html = readFileSync(path.join(dist, pageFile('/herb-extract/page-2')), 'utf8');
    expect(extractLinks(html, '/herb-extract/page-2', ORIGIN).internal).toEqual(
      expect.arrayContaining(['/images/photos/ginger-powder-320w.webp', '/images/photos/ginger-powder-640w.webp']),
    );
  });

  test('sitemap.xml lists the indexable pages once each, with content dates as lastmod', () => {
    const xml = readFileSync(path.join(dist, 'sitemap.xml'), 'utf8');
    const entries = [...xml.matchAll(/<url><loc>([^<]+)<\/loc><lastmod>([^<]+)<\/lastmod>(?:<image:image>.*?<\/image:image>)*<\/url>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    const urls = entries.map(([u]) => u.slice(ORIGIN.length) || '/');
    // Not thanks, search or search-not-found (noindex); page-1 routes are canonical to their bare list.
    expect(urls).toEqual(ROUTES.filter((r) => !['/thanks', '/search', '/search/404'].includes(r) && !r.endsWith('/page-1')));
    const lastmod = Object.fromEntries(entries.map(([u, d]) => [u.slice(ORIGIN.length) || '/', d]));
    expect(lastmod['/herb-extract/bulk-curcumin']).toBe('2024-03-01');
    expect(lastmod['/herb-extract/ginger-extract']).toBe('2024-04-02');
    expect(lastmod['/knowledge/what-is-curcumin']).toBe('2023-01-10');
    expect(lastmod['/knowledge/ginger-dosage-guide']).toBe('2023-06-01'); // its `updated`, not its `date`
    expect(lastmod['/news/exhibition-2024']).toBe('2024-06-20');
    expect(lastmod['/about-us']).toBe('2022-01-01');
    const dates = contentDates();
    for (const [url, d] of entries) expect(dates.has(d), `${url} lastmod ${d}`).toBe(true);
  });

  test('every page is byte-identical to a plain in-process renderRoute with the whole catalogue', async () => {
    // The build renders from a lean catalogue (no body blocks; each detail page reads its own from the data
    // file); this proves that changes nothing, and that the pool adds nothing of its own.
    // The compiled templates, as the workers run them (vitest's JSX transform would pick React's dev runtime).
    const { createSiteModel, render404, render500, renderRoute } = await import(pathToFileURL(path.join(ROOT, 'build/src/render/index.js')).href);
    const checked = await checkDataDir(SMALL);
    const model = createSiteModel(checked.catalogue!, readAssetRefs(defaultClientDir()));
    for (const route of checked.routes) {
      expect(readFileSync(path.join(dist, route.output), 'utf8'), route.path).toBe(renderRoute(model, route));
    }
    expect(readFileSync(path.join(dist, '404.html'), 'utf8')).toBe(render404(model));
    expect(readFileSync(path.join(dist, '500.html'), 'utf8')).toBe(render500(model));
  });

  test('the React-output scanner over a page in pieces (shared header and footer read once) finds exactly what the general scanner finds on it whole', async () => {
    const { createSiteModel, renderRouteParts } = await import(pathToFileURL(path.join(ROOT, 'build/src/render/index.js')).href);
    const checked = await checkDataDir(SMALL);
    const model = createSiteModel(checked.catalogue!, readAssetRefs(defaultClientDir()));
    let sharedPieces = 0;
    // Twice over: the second pass reads the shared pieces from the cache the first one filled.
    for (const pass of [1, 2]) {
      for (const route of checked.routes) {
        const { parts, shared } = renderRouteParts(model, route) as { parts: string[]; shared: boolean[] };
        expect(parts.length).toBe(shared.length);
        if (pass === 1) sharedPieces += shared.filter(Boolean).length;
        const whole = extractLinks(parts.join(''), route.path, ORIGIN);
        const pieces = resolveReferences(parts, route.path, ORIGIN, shared);
        // Each target once: the page's own, or its shared pieces' group.
        expect(pageTargets(pieces).sort(), `${route.path} pass ${pass}`).toEqual(whole.internal.sort());
        expect(pieces.group?.targets.size, route.path).toBeGreaterThan(5); // home, the lists, company pages, categories
        expect(pieces.unsafe.sort(), `${route.path} pass ${pass}`).toEqual(whole.unsafe.sort());
        expect(whole.internal.length).toBeGreaterThan(10);
      }
    }
    expect(sharedPieces).toBe(2 * checked.routes.length); // header and footer on every page
  });

  test('the link scanner finds exactly what cheerio finds on every built page', () => {
    for (const f of listFiles(dist).filter((f) => f.endsWith('.html'))) {
      const html = readFileSync(path.join(dist, f), 'utf8');
      const route = f === 'index.html' ? '/' : '/' + f.replace(/\/?index\.html$/, '');
      const fast = extractLinks(html, route, ORIGIN);
      const reference = extractLinksWithCheerio(html, route, ORIGIN);
      expect(fast.internal.sort(), f).toEqual(reference.internal.sort());
      expect(fast.unsafe.sort(), f).toEqual(reference.unsafe.sort());
    }
  });

  test('robots.txt names the sitemap', () => {
    expect(readFileSync(path.join(dist, 'robots.txt'), 'utf8')).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });

  test.each([
    ['404.html', '404', 'This page could not be found', 'not-found'],
    ['500.html', '500', 'Error', 'error'],
  ])('%s shows status %s and "%s" (spec section 8), links "Back to the home page" to /, is noindex with no canonical', (file, status, message, screen) => {
    const $ = load(readFileSync(path.join(dist, file), 'utf8'));
    expect($('.error-code').text()).toBe(status);
    expect($('h1').text()).toBe(message);
    const back = $('a').filter((_, a) => $(a).text().trim() === 'Back to the home page');
    expect(back.attr('href')).toBe('/');
    expect($('meta[name=robots]').attr('content')).toContain('noindex');
    expect($('link[rel=canonical]').length).toBe(0);
    expect($('body').attr('data-screen')).toBe(screen);
  });

  test('reports/links.json: every page checked, nothing broken; build-routes.json explains each route', () => {
    const links = JSON.parse(readFileSync(path.join(work, 'reports/links.json'), 'utf8'));
    expect(links).toMatchObject({ pages: 27, broken: 0, unsafe: 0, brokenLinks: [], unsafeLinks: [] });
    expect(links.targets).toBeGreaterThanOrEqual(ROUTES.length);
    expect(links.references).toBeGreaterThan(links.targets);
    const report = JSON.parse(readFileSync(path.join(work, 'reports/build-routes.json'), 'utf8'));
    expect(report.routes.map((r: { path: string }) => r.path)).toEqual(ROUTES);
    const byPath = Object.fromEntries(report.routes.map((r: { path: string }) => [r.path, r]));
    expect(byPath['/herb-extract/bulk-curcumin'].warnings).toContain('check/duplicate-route');
    expect(byPath['/herb-extract/ginger-extract'].warnings).toContain('check/empty-meta');
    expect(byPath['/herb-extract/ginger-extract'].metaFallback.sort()).toEqual(['description', 'keywords', 'title']);
    expect(byPath['/thanks']).toMatchObject({ screen: 'thanks', indexable: false, output: expect.stringMatching(/dist\/thanks\/index\.html$/) });
  });

  test('script-like content comes out inert: no executable script or javascript: URL in any page', () => {
    const pages = listFiles(dist).filter((f) => f.endsWith('.html'));
    for (const f of pages) {
      const html = readFileSync(path.join(dist, f), 'utf8');
      expect(html, f).not.toMatch(/<script>alert/i);
      expect(html, f).not.toMatch(/<img[^>]+onerror/i);
      const $ = load(html);
      $('script').each((_, el) => {
        const s = $(el);
        if (s.attr('src') !== undefined) return;
        expect(s.attr('type'), `${f}: inline script`).toBe('application/ld+json');
        expect(() => JSON.parse(s.text()), `${f}: JSON-LD parses`).not.toThrow();
      });
      $('[href],[src],[action],[formaction],[cite]').each((_, el) => {
        for (const attr of ['href', 'src', 'action', 'formaction', 'cite']) {
          expect($(el).attr(attr) ?? '', `${f} ${attr}`).not.toMatch(/^\s*(javascript|vbscript):/i);
        }
      });
    }
    const article = readFileSync(path.join(dist, 'knowledge/script-injection-test/index.html'), 'utf8');
    const $ = load(article);
    expect($('h1').text()).toBe('Safety </script><script>alert(1)</script> check');
    const ld = $('script[type="application/ld+json"]')
      .map((_, el) => $(el).text())
      .get()
      .join('');
    expect(ld).not.toContain('</script');
    expect(ld).toContain('\\u003c/script');
  });
});

describe('failures leave the previous output untouched', () => {
  test('a route whose template throws fails the build with its path, template and cause; dist/ stays byte-identical', async () => {
    const before = snapshot(dist);
    const run = await buildWithRenderer(work, hook('failing-render.mjs'));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('build/render-failed');
    expect(run.stderr).toContain(
      'Route /herb-extract/ginger-extract (screen "product", template ProductDetail) failed to render: Cannot read properties of undefined (reading "assay")',
    );
    expect(run.stdout).toMatch(/^site build: failed \(a page failed to render\) in \d+\.\d\d s · 1 error, 2 warnings · \S+ left unchanged\n$/);
    expect(snapshot(dist)).toEqual(before);
    expect(noTempLeft(work)).toEqual([]);
  });

  test('a data file changed after the check fails the build, naming the file, and dist/ stays as it was', async () => {
    // The build renders from a lean catalogue and reads each body back when its page renders: it must not
    // publish content the check never saw.
    const fresh = workDir();
    const data = path.join(fresh, 'data');
    cpSync(SMALL, data, { recursive: true });
    expect((await build(fresh, [], undefined, data)).code).toBe(0);
    const dist = path.join(fresh, 'dist');
    const before = snapshot(dist);
    const touched = path.join(data, 'articles/what-is-curcumin.json');
    const run = await buildWithRenderer(fresh, hook('changing-data-render.mjs'), { concurrency: 1, env: { SITE_TEST_TOUCH: touched }, data });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('build/render-failed');
    expect(run.stderr).toContain(
      `Route /knowledge/what-is-curcumin (screen "article") failed to render: ${touched} changed during the build, after it was checked; run the build again`,
    );
    expect(snapshot(dist)).toEqual(before);
    expect(noTempLeft(fresh)).toEqual([]);
  });

  test("a build that fails after taking pages over (links to dist/) leaves dist/ as it was, and the next build makes a clean build's bytes", async () => {
    const own = workDir();
    const data = path.join(own, 'data');
    cpSync(SMALL, data, { recursive: true });
    const failing = hook('failing-on-request-render.mjs');
    const out = path.join(own, 'dist');
    const edit = (slug: string, text: string) => {
      const file = path.join(data, `articles/${slug}.json`);
      const article = JSON.parse(readFileSync(file, 'utf8'));
      article.body.unshift({ type: 'paragraph', text });
      writeFileSync(file, JSON.stringify(article, null, 2));
    };
    expect((await buildWithRenderer(own, failing, { data })).code).toBe(0);
    edit('ginger-dosage-guide', 'Made a spare.');
    expect((await buildWithRenderer(own, failing, { data })).code).toBe(0);
    const before = snapshot(out);
    const ginger = () => statSync(path.join(out, pageFile('/knowledge/ginger-dosage-guide')), { bigint: true }).ctimeNs;
    const changed = ginger();
    // Every page but the two edited ones is taken over (the ginger guide's is out of date in the spare) before
    // the curcumin page fails: the links move the change times of dist/'s files, never their bytes.
    edit('what-is-curcumin', 'Fails to render.');
    const failed = await buildWithRenderer(own, failing, { data, env: { SITE_TEST_FAIL_ROUTE: '/knowledge/what-is-curcumin' } });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('asked to fail: /knowledge/what-is-curcumin');
    expect(ginger()).not.toBe(changed);
    expect(snapshot(out)).toEqual(before);
    expect(noTempLeft(own)).toEqual([]);

    const next = await buildWithRenderer(own, failing, { data });
    expect(next.code, next.stderr).toBe(0);
    const clean = workDir();
    expect((await build(clean, ['--no-cache'], undefined, data)).code).toBe(0);
    expect(snapshot(out)).toEqual(snapshot(path.join(clean, 'dist')));
    expect(readFileSync(path.join(out, pageFile('/knowledge/what-is-curcumin')), 'utf8')).toContain('Fails to render.');
  });
  test('a broken internal link and a javascript: link fail the build and are listed in reports/links.json', async () => {
    const fresh = workDir();
    const run = await buildWithRenderer(fresh, hook('broken-link-render.mjs'));
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/failed \(broken links; see \S+\/links\.json\)/);
    expect(run.stderr).toContain('build/broken-link');
    expect(run.stderr).toContain('Link to /herb-extract/no-such-product (from /about-us) resolves to no built file');
    expect(run.stderr).toContain('build/unsafe-link');
    const links = JSON.parse(readFileSync(path.join(fresh, 'reports/links.json'), 'utf8'));
    expect(links).toMatchObject({
      broken: 1,
      unsafe: 1,
      brokenLinks: [{ target: '/herb-extract/no-such-product', references: 1, sources: ['/about-us'] }],
      unsafeLinks: [{ reference: 'javascript:alert(1)', source: '/contact-us' }],
    });
    expect(existsSync(path.join(fresh, 'dist'))).toBe(false);
    expect(noTempLeft(fresh)).toEqual([]);
  });

  test('catalogue errors (a javascript: link in content) are reported like `site check` and nothing is rendered', async () => {
    const before = snapshot(dist);
    const data = variant('articles/what-is-curcumin.json', (a) => {
      a.body.push({ type: 'paragraph', text: [{ text: 'click', href: 'javascript:alert(1)' }] });
    });
    const run = await build(work, [], undefined, data);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('check/unsafe-link');
    expect(run.stderr).toContain('articles/what-is-curcumin.json');
    expect(run.stdout).toMatch(/^site build: failed \(the catalogue has errors\)/);
    expect(snapshot(dist)).toEqual(before);
  });

  test('--strict turns the check warnings into errors', async () => {
    const fresh = workDir();
    const run = await build(fresh, ['--strict']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('check/duplicate-route');
    expect(existsSync(path.join(fresh, 'dist'))).toBe(false);
  });

  test.each([
    ['404.html', 'failing-404-render.mjs', 'build/not-found-fallback', '404 template exploded', ['500.html', '<h1>Error</h1>']],
    ['500.html', 'failing-500-render.mjs', 'build/error-page-fallback', '500 template exploded', ['404.html', 'This page could not be found']],
  ])(
    'when the template of %s fails, the minimal error page is written in its place and the failure reported; the other error page is unaffected',
    async (file, hookFile, code, cause, [other, otherText]) => {
      const fresh = workDir();
      const run = await buildWithRenderer(fresh, hook(hookFile));
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(code);
      expect(run.stderr).toContain(cause);
      expect(run.stdout).toMatch(/· 3 warnings ·/);
      const $ = load(readFileSync(path.join(fresh, 'dist', file), 'utf8'));
      expect($('body').text()).toContain('An error occurred while showing the error page');
      const back = $('a').filter((_, a) => $(a).text().trim() === 'Go back to home');
      expect(back.attr('href')).toBe('/');
      expect(readFileSync(path.join(fresh, 'dist', other), 'utf8')).toContain(otherText);
    },
  );
});

describe('determinism and the command line', () => {
  /** A rebuild that runs: with its reports gone, the output's manifest no longer vouches for it (build/incremental/up-to-date.ts). */
  const rebuild = (extra: string[] = []) => {
    rmSync(path.join(work, 'reports'), { recursive: true, force: true });
    return build(work, extra);
  };

  test('two builds (the main thread alone; it and two workers) write byte-identical files and link reports', async () => {
    // Side by side, so both use the same compiled templates even while they are being worked on.
    // Every thread renders from the lean catalogue, reading each detail page's body from its data file.
    const [a, b] = [workDir(), workDir()];
    const runs = await Promise.all([build(a, ['--concurrency', '3']), build(b, ['--concurrency', '1'])]);
    expect(runs.map((r) => r.code)).toEqual([0, 0]);
    expect(snapshot(path.join(b, 'dist'))).toEqual(snapshot(path.join(a, 'dist')));
    expect(readFileSync(path.join(b, 'reports/links.json'))).toEqual(readFileSync(path.join(a, 'reports/links.json')));
  });

  test('--json prints one JSON document; a rebuild replaces dist/ atomically', async () => {
    const run = await rebuild(['--json']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ ok: true, pages: 27, errors: 0, warnings: 2, links: { pages: 27, broken: 0 } });
    expect(summary.peakRssBytes).toBeGreaterThan(0);
    expect(noTempLeft(work)).toEqual([]);
  });

  test('a rebuild writes into the previous output (the spare): the same files as a fresh build, leftovers gone', async () => {
    const expected = snapshot(dist);
    const spare = path.join(work, '.dist-spare');
    expect(existsSync(spare)).toBe(true); // the output the rebuild above replaced
    mkdirSync(path.join(spare, 'removed-route'), { recursive: true });
    writeFileSync(path.join(spare, 'removed-route/index.html'), 'a page whose route is gone');
    writeFileSync(path.join(spare, 'assets/main-0ld.js'), 'an asset of an older bundle');
    // An older build's files are files of their own: a page of the spare may be the output's, under a second name.
    rmSync(path.join(spare, 'index.html'));
    writeFileSync(path.join(spare, 'index.html'), 'an outdated home page');
    // A twin that became a file of its own, with other bytes, and one whose page changed.
    rmSync(path.join(spare, 'about-us.html'));
    writeFileSync(path.join(spare, 'about-us.html'), 'a stale twin');
    rmSync(path.join(spare, 'contact-us/index.html'));
    writeFileSync(path.join(spare, 'contact-us/index.html'), 'an outdated contact page');
    const run = await rebuild();
    expect(run.code).toBe(0);
    expect(snapshot(dist)).toEqual(expected);
    for (const route of ROUTES.filter((r) => r !== '/')) {
      expect(statSync(path.join(dist, twinFile(route))).ino, route).toBe(statSync(path.join(dist, pageFile(route))).ino);
    }
    expect(noTempLeft(work)).toEqual([]);
  });

  test('a rebuild leaves a page of the spare unread while it matches the stamp its build recorded; one edited in place since is written anew', async () => {
    // The test above removed names of files the spare shares with dist/, which moved their change times: one
    // rebuild takes those pages over again.
    expect((await rebuild()).code).toBe(0);
    const expected = snapshot(dist);
    const spare = path.join(work, '.dist-spare');
    // The build that left the spare recorded its pages' stamps, under the folder's device and inode (output-stamps.ts).
    const { dev, ino } = statSync(spare, { bigint: true });
    const record = path.join(process.env.SITE_CACHE_DIR!, 'outputs', `${dev}-${ino}.tsv`);
    expect(readFileSync(record, 'utf8')).toContain(`${pageFile('/about-us')}\t`);
    const untouched = path.join(spare, pageFile('/contact-us'));
    const kept = statSync(untouched, { bigint: true });
    // An edit in place that keeps the page's size: only its change time tells.
    const page = path.join(spare, pageFile('/about-us'));
    const text = readFileSync(page, 'utf8');
    const at = text.indexOf('</title>') - 1;
    writeFileSync(page, text.slice(0, at) + (text[at] === 'x' ? 'y' : 'x') + text.slice(at + 1));
    const run = await rebuild(['--json']);
    expect(run.code).toBe(0);
    expect(snapshot(dist)).toEqual(expected);
    // Every other page was known unchanged by its stamp, and none had to be read back.
    const pages = new Set(ROUTES).size;
    expect(JSON.parse(run.stdout).unchanged).toEqual({ pages: pages - 1, byStamp: pages - 1 });
    const after = statSync(path.join(dist, pageFile('/contact-us')), { bigint: true });
    expect([after.ino, after.ctimeNs]).toEqual([kept.ino, kept.ctimeNs]);
    expect(existsSync(record)).toBe(true); // the record now describes dist/, the same folder
  });

  test("a rebuild takes a page over as the output's own file, hard-linked, not copied; a page rendered again replaces its link and never writes through it", async () => {
    const own = workDir();
    const data = path.join(own, 'data');
    cpSync(SMALL, data, { recursive: true });
    const [out, spare] = [path.join(own, 'dist'), path.join(own, '.dist-spare')];
    const editArticle = async (slug: string, text: string) => {
      const file = path.join(data, `articles/${slug}.json`);
      const article = JSON.parse(readFileSync(file, 'utf8'));
      article.body.unshift({ type: 'paragraph', text });
      writeFileSync(file, JSON.stringify(article, null, 2));
      const run = await build(own, ['--json'], undefined, data);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { rendered: number; reused: number };
    };
    const ino = (folder: string, route: string) => statSync(path.join(folder, pageFile(route))).ino;
    expect((await build(own, [], undefined, data)).code).toBe(0);

    // Every page but the edited one is the first output's file, under a second name.
    const curcumin = '/knowledge/what-is-curcumin';
    expect(await editArticle('what-is-curcumin', 'First edit.')).toMatchObject({ rendered: 1, reused: new Set(ROUTES).size - 1 });
    for (const route of new Set(ROUTES.filter((r) => r !== curcumin))) {
      const page = statSync(path.join(out, pageFile(route)));
      expect([page.ino, page.nlink], route).toEqual([ino(spare, route), route === '/' ? 2 : 4]);
    }
    expect(ino(out, curcumin)).not.toBe(ino(spare, curcumin));

    // The next build writes the ginger guide into the spare, where its file is also the live output's.
    const ginger = '/knowledge/ginger-dosage-guide';
    const served = readFileSync(path.join(out, pageFile(ginger)), 'utf8');
    expect(await editArticle('ginger-dosage-guide', 'Second edit.')).toMatchObject({ rendered: 1 });
    expect(readFileSync(path.join(out, pageFile(ginger)), 'utf8')).toContain('Second edit.');
    // The output it replaced, now the spare, still holds what it served: the write replaced the link.
    expect(readFileSync(path.join(spare, pageFile(ginger)), 'utf8')).toBe(served);
    // The curcumin page, out of date in the spare, is now linked from the output too.
    expect(ino(spare, curcumin)).toBe(ino(out, curcumin));
    expect(readFileSync(path.join(out, pageFile(curcumin)), 'utf8')).toContain('First edit.');
  });

  test('--no-html-twins writes each page under its folder only, and a rebuild from a spare with twins drops them', async () => {
    const withTwins = snapshot(dist);
    // Twice: the first build writes into the spare of a build with twins, the second into its own.
    for (let i = 0; i < 2; i++) {
      const run = await build(work, ['--no-html-twins']);
      expect(run.code).toBe(0);
      const files = [...snapshot(dist).keys()];
      expect(files).toEqual([...withTwins.keys()].filter((f) => !ROUTES.some((r) => r !== '/' && f === twinFile(r))));
      expect(files.filter((f) => f.endsWith('.html') && !f.endsWith('/index.html'))).toEqual(['404.html', '500.html', 'index.html']);
    }
    const back = await build(work);
    expect(back.code).toBe(0);
    expect(snapshot(dist)).toEqual(withTwins);
  });

  test('usage errors exit 2', async () => {
    const run = await site(['build', '--concurrency', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--concurrency "0": expected a whole number of at least 1');
    const unknown = await site(['build', '--no-such-flag']);
    expect(unknown.code).toBe(2);
  });
});
