import {
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { AssetsMissingError, copyAssets, readAssetRefs } from '../../src/emit/files/assets.js';
import {
  createTempDir,
  keepAsSpare,
  ownerOf,
  prepareTempDir,
  removeUnwritten,
  spareDirFor,
  swapIn,
  takeInventory,
  tempDirFor,
  type Inventory,
  type RecordedFolder,
} from '../../src/emit/output/atomic.js';
import { statStamp } from '../../src/emit/output/stamps.js';
import { manifestFileOf, recordedFolder, writeManifest } from '../../src/emit/incremental/up-to-date.js';
import { extractLinksWithCheerio } from './links-reference.js';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { jsonLdScript } from '../../src/templates/JsonLd.js';
import {
  BatchTally,
  PositionTally,
  extractLinks,
  findBroken,
  internalPath,
  mergeTally,
  pageTargets,
  resolveReferences,
  tallyEntries,
  tallyPage,
  type LinkTally,
  type PageLinks,
} from '../../src/emit/links/scan.js';
import { decodeEntities } from '../../src/core/html/entities.js';
import { srcsetUrls } from '../../src/core/html/srcset.js';
import { candidateFiles } from '../../src/core/static-files.js';
import { insideRoot, safeOutputFile, UnsafePathError } from '../../src/emit/output/paths.js';
import { robotsTxt, sitemapEntries, writeSitemap } from '../../src/emit/files/sitemap.js';
import { siteWriter } from '../../src/emit/output/site-writer.js';
import { COPY_CACHE_DAYS, publishImages } from '../../src/emit/files/images.js';
import { digestOf, readDataDir } from '../../src/load/read.js';
import { writeOutputFile } from '../../src/emit/output/page-file.js';

const ORIGIN = 'https://www.example.com';
const scratch = () => mkdtempSync(path.join(tmpdir(), 'site-emit-'));

describe('link extraction', () => {
  test('internal references are reduced to decoded URL paths; external, same-page and mailto are ignored', () => {
    expect(internalPath('/herb-extract?x=1#top', '/', ORIGIN)).toBe('/herb-extract');
    expect(internalPath(`${ORIGIN}/knowledge/page-2`, '/', ORIGIN)).toBe('/knowledge/page-2');
    expect(internalPath(ORIGIN, '/', ORIGIN)).toBe('/');
    expect(internalPath('/caf%C3%A9', '/', ORIGIN)).toBe('/café');
    expect(internalPath('page-2', '/knowledge/page-1', ORIGIN)).toBe('/knowledge/page-2');
    expect(internalPath('#main', '/', ORIGIN)).toBeNull();
    expect(internalPath('https://www.example.com.evil.test/x', '/', ORIGIN)).toBeNull();
    expect(internalPath('https://other.test/x', '/', ORIGIN)).toBeNull();
    expect(internalPath('//cdn.test/x.js', '/', ORIGIN)).toBeNull();
    expect(internalPath('mailto:sales@example.com', '/', ORIGIN)).toBeNull();
    expect(internalPath('tel:+15550100', '/', ORIGIN)).toBeNull();
    expect(internalPath(' JaVaScRiPt:alert(1)', '/', ORIGIN)).toEqual({ unsafe: 'JaVaScRiPt:alert(1)' });
    expect(internalPath('java\tscript:alert(1)', '/', ORIGIN)).toEqual({ unsafe: 'javascript:alert(1)' });
    expect(internalPath('data:text/html,<script>alert(1)</script>', '/', ORIGIN)).toEqual({ unsafe: 'data:text/html,<script>alert(1)</script>' });
    expect(internalPath('data:,', '/', ORIGIN)).toBeNull();
    expect(internalPath('data:image/png;base64,AAAA', '/', ORIGIN)).toBeNull();
  });

  test('every kind of reference is collected once per page', () => {
    const html = `<!doctype html><html><head>
      <link rel="stylesheet" href="/assets/styles-1.css"><link rel="canonical" href="${ORIGIN}/products">
      <meta property="og:image" content="${ORIGIN}/images/products/a.svg"><meta name="twitter:image" content="https://cdn.test/b.png">
      <meta name="description" content="/not-a-link"><script src="/assets/main-1.js" defer></script></head>
      <body><a href="/products">P</a><a href="/products#x">P again</a><img src="/img/a.png" srcset="/img/a-1x.png 1x, /img/a-2x.png 2x">
      <picture><source srcset="/img/b.webp 2x"></picture><a href="https://other.test/">ext</a><a href="javascript:void(0)">bad</a>
      <form action="/api/inquiry" method="post"></form></body></html>`;
    const links = extractLinks(html, '/products', ORIGIN);
    expect(links.internal.sort()).toEqual([
      '/assets/main-1.js',
      '/assets/styles-1.css',
      '/images/products/a.svg',
      '/img/a-1x.png',
      '/img/a-2x.png',
      '/img/a.png',
      '/img/b.webp',
      '/products',
    ]);
    expect(links.unsafe).toEqual(['javascript:void(0)']);
  });

  test('the React-output scanner reads a value or a JSON-LD string ending in ` src=` as text, as cheerio does', () => {
    const page = createElement(
      'html',
      null,
      createElement(
        'head',
        null,
        // Through the site's own JSON-LD writer: escaped as every page's is.
        jsonLdScript({ '@context': 'https://schema.org', '@type': 'Thing', name: 'Cat src=', image: '/ld.png', b: 'x href=', c: '/not' } as never),
        createElement('script', { src: '/assets/main.js' }),
      ),
      createElement(
        'body',
        null,
        createElement('img', { alt: 'Cat src=', src: '/cat.png' }),
        createElement('a', { title: 'see href=', href: '/see' }, 'x'),
        createElement('meta', { name: 'x content=', content: '/not-a-reference' }),
        createElement('img', { srcSet: '/a.png 1x, /b.png 2x' }),
      ),
    );
    const html = renderToStaticMarkup(page);
    const fast = resolveReferences([html], '/', ORIGIN);
    expect(fast.internal.sort()).toEqual(extractLinksWithCheerio(html, '/', ORIGIN).internal.sort());
    expect(fast.internal.sort()).toEqual(['/a.png', '/assets/main.js', '/b.png', '/cat.png', '/see']);
  });

  test('the tag scanner agrees with cheerio on every quoting style, entity and attribute order', () => {
    const html = `<html><head><meta content="${ORIGIN}/og.png" property="og:image"><meta name='twitter:image' content=/tw.png>
      <link href='/single.css' rel=stylesheet><script defer src=/unquoted.js></script></head><body>
      <a title="x" href="/a?b=1&amp;c=2">x</a><A HREF="/UPPER">u</A><a data-href="/not-this" href="/this">t</a>
      <a href="/caf&#xe9;">e</a><a href = "/spaced" >s</a><img alt="a > b" src="/gt.png"><img srcset="/s1.png 1x, /s2.png 2x" src="/s.png">
      <video poster="/poster.jpg"></video><iframe src="/frame"></iframe><area href="/area"><a href="javascript:alert(1)">j</a>
      <a>no href</a><abbr title="/not-a-link">a</abbr><source srcset="/src.webp"></body></html>`;
    const fast = extractLinks(html, '/', ORIGIN);
    const reference = extractLinksWithCheerio(html, '/', ORIGIN);
    expect(fast.internal.sort()).toEqual(reference.internal.sort());
    expect(fast.unsafe).toEqual(reference.unsafe);
    expect(fast.internal).toEqual(
      [
        '/UPPER',
        '/a',
        '/area',
        '/caf\u00e9',
        '/frame',
        '/gt.png',
        '/og.png',
        '/poster.jpg',
        '/s.png',
        '/s1.png',
        '/s2.png',
        '/single.css',
        '/spaced',
        '/src.webp',
        '/this',
        '/tw.png',
        '/unquoted.js',
      ].sort(),
    );
    expect(decodeEntities('a&amp;b&quot;&#x27;&#39;&lt;&gt;&unknown;')).toBe(`a&b"''<>&unknown;`);
  });

  test('srcset candidates and clean-URL file candidates', () => {
    expect(srcsetUrls(' a.png 1x,b.png  2x , c.png')).toEqual(['a.png', 'b.png', 'c.png']);
    expect(candidateFiles('/')).toEqual(['index.html']);
    expect(candidateFiles('/herb-extract')).toEqual(['herb-extract', 'herb-extract/index.html', 'herb-extract.html']);
    expect(candidateFiles('/herb-extract/')).toEqual(['herb-extract/index.html']);
  });

  test('tallies merge to the same report whatever order the workers finish in', () => {
    const batchA: LinkTally = new Map();
    const batchB: LinkTally = new Map();
    for (let i = 0; i < 8; i++) tallyPage(i % 2 ? batchA : batchB, ['/missing', '/'], i);
    const ab: LinkTally = new Map();
    mergeTally(ab, tallyEntries(batchA));
    mergeTally(ab, tallyEntries(batchB));
    const ba: LinkTally = new Map();
    mergeTally(ba, tallyEntries(batchB));
    mergeTally(ba, tallyEntries(batchA));
    expect(ab).toEqual(ba);
    expect(ab.get('/missing')).toEqual({ count: 8, sources: [0, 1, 2, 3, 4] });
    const broken = findBroken(ab, new Set(['index.html']), (i) => `/page-${i}`);
    expect(broken).toEqual([{ target: '/missing', references: 8, sources: ['/page-0', '/page-1', '/page-2', '/page-3', '/page-4'] }]);
  });
  test("a batch tally counts the shared pieces' targets as a group, to the same counts as page by page", () => {
    const header = { targets: new Set(['/', '/contact-us', '/herb-extract']) };
    const other = { targets: new Set(['/', '/about-us']) };
    const pages: PageLinks[] = [
      { internal: ['/a'], unsafe: [], group: header },
      { internal: ['/b', '/missing'], unsafe: [], group: header },
      { internal: ['/', '/a'], unsafe: [] },
      { internal: ['/a'], unsafe: [], group: other },
      ...Array.from({ length: 6 }, (): PageLinks => ({ internal: [], unsafe: [], group: header })),
    ];
    const batch = new BatchTally();
    const plain: LinkTally = new Map();
    pages.forEach((p, i) => {
      batch.add(p, i);
      tallyPage(plain, pageTargets(p), i);
    });
    const merged: LinkTally = new Map();
    mergeTally(merged, batch.entries());
    expect(merged).toEqual(plain);
    expect(merged.get('/')).toEqual({ count: 10, sources: [0, 1, 2, 3, 4] });
    expect(merged.get('/contact-us')).toEqual({ count: 8, sources: [0, 1, 4, 5, 6] });
    expect(merged.get('/about-us')).toEqual({ count: 1, sources: [3] });
    // Reporting leaves the tally as it was.
    const again: LinkTally = new Map();
    mergeTally(again, batch.entries());
    expect(again).toEqual(plain);
  });

  test('a tally by positions (pages taken over from the record) counts as the batch tally of the same pages, whatever the pages', () => {
    // A small generator with a seed, so that a failure names the case that failed.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const targets = Array.from({ length: 1 + random(12) }, (_, i) => `/t${i}`);
      // Groups as the record keeps them: sorted positions, one sometimes listed twice.
      const groups = Array.from({ length: random(4) }, () => Array.from({ length: random(5) }, () => random(targets.length)).sort((a, b) => a - b));
      const pages = Array.from({ length: random(30) }, () => ({
        internal: Int32Array.from({ length: random(6) }, () => random(targets.length)),
        group: groups.length === 0 || random(3) === 0 ? -1 : random(groups.length),
        index: random(40),
      }));
      const byPosition = new PositionTally(targets, groups);
      const batch = new BatchTally();
      const shared = groups.map((g) => ({ targets: new Set(g.map((t) => targets[t])) }));
      for (const page of pages) {
        byPosition.add(page.internal, page.group, page.index);
        const internal = Array.from(page.internal, (t) => targets[t]);
        batch.add(page.group < 0 ? { internal, unsafe: [] } : { internal, unsafe: [], group: shared[page.group] }, page.index);
      }
      const got: LinkTally = new Map();
      mergeTally(got, byPosition.entries());
      const want: LinkTally = new Map();
      mergeTally(want, batch.entries());
      expect(got, `round ${round}`).toEqual(want);
    }
  });
});

describe('output paths', () => {
  test('refuses anything that could leave the output folder', () => {
    expect(safeOutputFile('herb-extract/index.html')).toBe('herb-extract/index.html');
    const bad = ['../x/index.html', 'a/../../index.html', '/etc/passwd', 'a\\..\\b/index.html', 'a//index.html', 'a/\u0000/index.html', ''];
    bad.push('.', '..', './a', 'a/.', 'a/..', 'a/', '/', 'a/\u007f.html', 'a\tb/index.html', 'a\\b');
    for (const file of bad) expect(() => safeOutputFile(file), JSON.stringify(file)).toThrow(UnsafePathError);
    // Dots inside a segment name nothing but that segment.
    for (const good of ['.well/index.html', '..a/index.html', 'a../b...', 'a.b/c.d.html', 'café/index.html', ' /x']) expect(safeOutputFile(good)).toBe(good);
    const root = scratch();
    expect(insideRoot(root, 'a/index.html')).toBe(path.join(root, 'a', 'index.html'));
    expect(() => insideRoot(root, '../escape.html')).toThrow(/unsafe segment/);
  });
});

describe('sitemap and robots', () => {
  test('only indexable pages, one entry per canonical URL, with the newest content date', () => {
    const entries = sitemapEntries([
      { indexable: true, canonical: `${ORIGIN}/`, lastmod: '2024-06-30' },
      { indexable: true, canonical: `${ORIGIN}/herb-extract`, lastmod: '2024-03-01' },
      { indexable: true, canonical: `${ORIGIN}/herb-extract`, lastmod: '2024-05-03' },
      { indexable: false, canonical: `${ORIGIN}/thanks`, lastmod: '2022-01-07' },
    ]);
    expect(entries).toEqual([
      { url: `${ORIGIN}/`, lastmod: '2024-06-30' },
      { url: `${ORIGIN}/herb-extract`, lastmod: '2024-05-03' },
    ]);
  });

  test('a single urlset up to the limit, an index of numbered parts past it', async () => {
    const dir = scratch();
    const entries = Array.from({ length: 5 }, (_, i) => ({ url: `${ORIGIN}/p${i}`, lastmod: `2024-01-0${i + 1}` }));
    expect(await writeSitemap(siteWriter(dir), ORIGIN, entries, 5)).toEqual(['sitemap.xml']);
    const single = readFileSync(path.join(dir, 'sitemap.xml'), 'utf8');
    expect(single).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(single.match(/<url>/g)).toHaveLength(5);
    expect(single).toContain(`<loc>${ORIGIN}/p4</loc><lastmod>2024-01-05</lastmod>`);

    const split = scratch();
    expect(await writeSitemap(siteWriter(split), ORIGIN, entries, 2)).toEqual(['sitemap.xml', 'sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml']);
    const index = readFileSync(path.join(split, 'sitemap.xml'), 'utf8');
    expect(index).toContain('<sitemapindex');
    expect(index).toContain(`<sitemap><loc>${ORIGIN}/sitemap-2.xml</loc><lastmod>2024-01-04</lastmod></sitemap>`);
    expect(readFileSync(path.join(split, 'sitemap-3.xml'), 'utf8').match(/<url>/g)).toHaveLength(1);
  });

  test('through the build cache: the bytes made without it, and a changed entry is never a stale part', async () => {
    const cache = scratch();
    const entries = Array.from({ length: 5 }, (_, i) => ({ url: `${ORIGIN}/p${i}`, lastmod: `2024-01-0${i + 1}` }));
    const bytes = async (list: typeof entries, cacheDir?: string) => {
      const dir = scratch();
      const files = await writeSitemap(siteWriter(dir), ORIGIN, list, 2, cacheDir);
      return files.map((f) => readFileSync(path.join(dir, f), 'utf8'));
    };
    const fresh = await bytes(entries);
    expect(await bytes(entries, cache)).toEqual(fresh); // made and stored
    expect(await bytes(entries, cache)).toEqual(fresh); // from the cache
    expect(readdirSync(path.join(cache, 'sitemaps'))).toHaveLength(3);
    const changed = entries.map((e, i) => (i === 3 ? { ...e, lastmod: '2025-02-02' } : e));
    expect(await bytes(changed, cache)).toEqual(await bytes(changed));
    expect(readdirSync(path.join(cache, 'sitemaps'))).toHaveLength(4); // only the changed part was made again
  });

  test('site files: folders made as needed, bytes as given, paths in the order given', async () => {
    const dir = scratch();
    const files = Array.from({ length: 40 }, (_, i) => ({
      path: i % 2 === 0 ? `a/b/f${i}.txt` : `f${i}.txt`,
      contents: i % 3 === 0 ? Buffer.from([i, 0, 255]) : `file ${i}\n`,
    }));
    const writer = siteWriter(dir, 1);
    expect(await writer.write(files)).toEqual(files.map((f) => f.path));
    for (const f of files) expect(readFileSync(path.join(dir, f.path))).toEqual(Buffer.from(f.contents));
    expect(await writer.copy([{ from: path.join(dir, 'f1.txt'), path: 'c/copy.txt' }])).toEqual(['c/copy.txt']);
    expect(readFileSync(path.join(dir, 'c/copy.txt'), 'utf8')).toBe('file 1\n');
  });

  test('robots.txt names the sitemap on the origin', () => {
    expect(robotsTxt(ORIGIN)).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  });
});

describe('atomic output', () => {
  test('the new folder replaces the old one, which is moved aside, not deleted first', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    mkdirSync(out);
    writeFileSync(path.join(out, 'old.txt'), 'old');
    const tmp = await createTempDir(out);
    expect(tmp).toBe(tempDirFor(out));
    expect(path.basename(tmp)).toBe(`.dist-${process.pid}-tmp`);
    writeFileSync(path.join(tmp, 'new.txt'), 'new');
    const aside = await swapIn(tmp, out, 1234);
    expect(aside).toBe(`${out}.old-1234-${process.pid}`);
    expect(readFileSync(path.join(out, 'new.txt'), 'utf8')).toBe('new');
    expect(readFileSync(path.join(aside!, 'old.txt'), 'utf8')).toBe('old');
    expect(existsSync(tmp)).toBe(false);
  });
});

describe('the spare output', () => {
  const tree = (root: string): string[] =>
    readdirSync(root, { recursive: true, withFileTypes: true })
      .map((e) => `${path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/')}${e.isDirectory() ? '/' : ''}`)
      .sort();

  test('a replaced output becomes the spare, and the next temporary folder is made from it', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    mkdirSync(path.join(out, 'a'), { recursive: true });
    writeFileSync(path.join(out, 'a/index.html'), 'first');
    const first = await prepareTempDir(out);
    expect(first.recycled).toBe(false); // no spare yet: a new folder
    expect(readdirSync(first.tmp)).toEqual([]);
    writeFileSync(path.join(first.tmp, 'index.html'), 'second');
    const aside = await swapIn(first.tmp, out);
    await keepAsSpare(aside!, out);
    expect(existsSync(aside!)).toBe(false);
    expect(readFileSync(path.join(spareDirFor(out), 'a/index.html'), 'utf8')).toBe('first');
    const next = await prepareTempDir(out);
    expect(next).toEqual({ tmp: tempDirFor(out), recycled: true });
    expect(existsSync(spareDirFor(out))).toBe(false);
    const inventory = takeInventory(next.tmp);
    expect([...inventory.files]).toEqual(['a/index.html']);
    expect([...inventory.dirs]).toEqual(['a']);
  });

  test('symbolic links in the spare are removed, hard-linked files kept and never written through; files not written again go', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    const spare = spareDirFor(out);
    const outside = path.join(parent, 'outside.txt');
    writeFileSync(outside, 'must stay');
    mkdirSync(path.join(spare, 'kept/deeper'), { recursive: true });
    mkdirSync(path.join(spare, 'gone/deeper'), { recursive: true });
    writeFileSync(path.join(spare, 'kept/index.html'), 'old');
    writeFileSync(path.join(spare, 'kept/stale.html'), 'old');
    writeFileSync(path.join(spare, 'kept/deeper/stale.html'), 'old');
    writeFileSync(path.join(spare, 'gone/deeper/index.html'), 'old');
    writeFileSync(path.join(spare, 'robots.txt'), 'old');
    writeFileSync(path.join(spare, 'stale.txt'), 'old');
    symlinkSync(outside, path.join(spare, 'kept/link.html'));
    linkSync(outside, path.join(spare, 'hard.html')); // a hard-linked copy kept elsewhere
    linkSync(outside, path.join(spare, 'robots.txt.kept')); // and one the build does not write again
    rmSync(path.join(spare, 'robots.txt'));
    linkSync(outside, path.join(spare, 'robots.txt')); // and one a site file is written over
    const { tmp } = await prepareTempDir(out);
    symlinkSync(parent, path.join(tmp, 'linked-folder')); // writing under it would leave the output
    const inventory = takeInventory(tmp);
    expect(existsSync(path.join(tmp, 'linked-folder'))).toBe(false);
    expect(existsSync(parent)).toBe(true);
    expect(existsSync(path.join(tmp, 'kept/link.html'))).toBe(false);
    expect([...inventory.files].sort()).toEqual([
      'gone/deeper/index.html',
      'hard.html',
      'kept/deeper/stale.html',
      'kept/index.html',
      'kept/stale.html',
      'robots.txt',
      'robots.txt.kept',
      'stale.txt',
    ]);
    // The build's own writers: pages (and artwork) through writeOutputFile, site files through siteWriter.
    writeOutputFile(path.join(tmp, 'kept/index.html'), ['new']);
    writeOutputFile(path.join(tmp, 'hard.html'), ['new']);
    writeOutputFile(path.join(tmp, 'new/index.html'), ['new'], true);
    await siteWriter(tmp).write([{ path: 'robots.txt', contents: 'new' }]);
    const written = new Set(['kept/index.html', 'robots.txt', 'hard.html', 'new/index.html']);
    removeUnwritten(tmp, inventory, written);
    expect(tree(tmp)).toEqual(['hard.html', 'kept/', 'kept/index.html', 'new/', 'new/index.html', 'robots.txt']);
    for (const f of written) expect(readFileSync(path.join(tmp, f), 'utf8'), f).toBe('new');
    expect(readFileSync(outside, 'utf8')).toBe('must stay');
    expect(lstatSync(outside).nlink).toBe(1);
  });

  test("leaves out of the inventory the files leaveOut names (pages' twins, which their writers replace), and only those", () => {
    const root = scratch();
    mkdirSync(path.join(root, 'herb-extract/bulk-curcumin'), { recursive: true });
    for (const f of ['herb-extract/index.html', 'herb-extract.html', 'herb-extract/bulk-curcumin/index.html', 'herb-extract/bulk-curcumin.html', 'gone.html']) {
      writeFileSync(path.join(root, f), 'old');
    }
    const pageDirs = new Set(['herb-extract', 'herb-extract/bulk-curcumin']);
    const inventory = takeInventory(root, 0, 1, (f) => f.endsWith('.html') && pageDirs.has(f.slice(0, -'.html'.length)));
    expect([...inventory.files].sort()).toEqual(['gone.html', 'herb-extract/bulk-curcumin/index.html', 'herb-extract/index.html']);
    expect(existsSync(path.join(root, 'herb-extract.html'))).toBe(true);
  });

  test('shared among threads, the walk takes each entry once: the parts together are the whole inventory, symbolic links removed', async () => {
    const make = () => {
      const root = scratch();
      const outside = path.join(scratch(), 'outside.txt');
      writeFileSync(outside, 'must stay');
      for (let i = 0; i < 60; i++) {
        mkdirSync(path.join(root, `knowledge/article-${i}/deeper`), { recursive: true });
        writeFileSync(path.join(root, `knowledge/article-${i}/index.html`), 'old');
        writeFileSync(path.join(root, `knowledge/article-${i}/deeper/stale.html`), 'old');
      }
      for (const f of ['index.html', 'robots.txt', 'herb-extract/index.html', 'assets/main.js', 'assets/styles.css']) {
        mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        writeFileSync(path.join(root, f), 'old');
      }
      symlinkSync(outside, path.join(root, 'knowledge/article-7/link.html'));
      symlinkSync(path.dirname(outside), path.join(root, 'knowledge/linked-folder'));
      symlinkSync(path.dirname(outside), path.join(root, 'linked-top'));
      linkSync(outside, path.join(root, 'knowledge/article-9/hard.html'));
      return { root, outside };
    };
    const whole = make();
    const expected = takeInventory(whole.root);
    expect(expected.files.size).toBe(126); // the hard-linked file among them
    for (const parts of [2, 3]) {
      const shared = make();
      const inventories = Array.from({ length: parts }, (_, part) => takeInventory(shared.root, part, parts));
      const files = inventories.flatMap((i) => [...i.files]);
      const dirs = inventories.flatMap((i) => [...i.dirs]);
      expect(files.length, 'no file taken twice').toBe(new Set(files).size);
      expect(dirs.length, 'no folder taken twice').toBe(new Set(dirs).size);
      expect(new Set(files)).toEqual(expected.files);
      expect(new Set(dirs)).toEqual(expected.dirs);
      expect(
        inventories.every((i) => i.files.size > 0),
        'every part has a share',
      ).toBe(true);
      expect(tree(shared.root)).toEqual(tree(whole.root)); // the same links removed, nothing else
      expect(readFileSync(shared.outside, 'utf8')).toBe('must stay');
    }
    expect(ownerOf('index.html', 2)).toBe(0);
    expect(ownerOf('knowledge', 2)).toBe(0);
    expect(ownerOf('knowledge/a/b/c', 5)).toBe(ownerOf('knowledge/a', 5));
  });

  /** What `root` holds now, as a manifest records it: its files, its folders and their stats. */
  const recordOf = (root: string): RecordedFolder => {
    const entries = readdirSync(root, { recursive: true, withFileTypes: true }).map((e) => ({
      rel: path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'),
      dir: e.isDirectory(),
    }));
    const dirs = ['', ...entries.filter((e) => e.dir).map((e) => e.rel)];
    return {
      files: entries.filter((e) => !e.dir).map((e) => e.rel),
      dirs,
      stats: dirs.map((d) => statStamp(lstatSync(path.join(root, d), { bigint: true }))),
    };
  };
  /** A file system's times move in ticks: a change in the tick of the record could leave a folder's stat as recorded (the manifest leaves such folders out). */
  const nextTick = () => new Promise((resolve) => setTimeout(resolve, 50));

  test('with a record of the folder, lists only the folders changed since, and still finds every change', async () => {
    const outside = path.join(scratch(), 'outside.txt');
    writeFileSync(outside, 'must stay');
    const make = () => {
      const root = scratch();
      for (let i = 0; i < 40; i++) {
        mkdirSync(path.join(root, `knowledge/article-${i}/deeper`), { recursive: true });
        writeFileSync(path.join(root, `knowledge/article-${i}/index.html`), 'old');
        writeFileSync(path.join(root, `knowledge/article-${i}/deeper/stale.html`), 'old');
      }
      for (const f of ['index.html', 'robots.txt', 'assets/main.js']) {
        mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
        writeFileSync(path.join(root, f), 'old');
      }
      return root;
    };
    const change = (root: string) => {
      writeFileSync(path.join(root, 'knowledge/article-3/new.html'), 'new');
      rmSync(path.join(root, 'knowledge/article-5/index.html'));
      rmSync(path.join(root, 'knowledge/article-7/index.html'));
      symlinkSync(outside, path.join(root, 'knowledge/article-7/index.html'));
      mkdirSync(path.join(root, 'knowledge/article-9/deeper/fresh/deepest'), { recursive: true });
      writeFileSync(path.join(root, 'knowledge/article-9/deeper/fresh/deepest/index.html'), 'new');
      rmSync(path.join(root, 'knowledge/article-11'), { recursive: true });
      mkdirSync(path.join(root, 'knowledge/article-40'));
      rmSync(path.join(root, 'assets/main.js'));
      mkdirSync(path.join(root, 'assets/main.js')); // a file now a folder
      writeFileSync(path.join(root, 'new.txt'), 'new');
    };
    for (const parts of [1, 2, 3]) {
      const plain = make();
      const listed = make();
      const recorded = recordOf(listed);
      // A name the record holds and the folder never did: seen only by an inventory that trusts the record for an unchanged folder.
      recorded.files.push('knowledge/article-20/deeper/only-in-the-record.html', 'knowledge/article-3/only-in-the-record.html');
      await nextTick();
      change(plain);
      change(listed);
      const expected = Array.from({ length: parts }, (_, part) => takeInventory(plain, part, parts));
      const got = Array.from({ length: parts }, (_, part) => takeInventory(listed, part, parts, undefined, recorded));
      const union = (inventories: Inventory[], kind: 'files' | 'dirs') => new Set(inventories.flatMap((i) => [...i[kind]]));
      expect(union(got, 'files')).toEqual(new Set([...union(expected, 'files'), 'knowledge/article-20/deeper/only-in-the-record.html']));
      expect(union(got, 'dirs')).toEqual(union(expected, 'dirs'));
      for (let part = 0; part < parts; part++) expect([...got[part].dirs].sort(), `part ${part} of ${parts}`).toEqual([...expected[part].dirs].sort());
      expect(union(got, 'files').has('knowledge/article-9/deeper/fresh/deepest/index.html')).toBe(true);
      expect(union(got, 'files').has('knowledge/article-5/index.html')).toBe(false);
      expect(existsSync(path.join(listed, 'knowledge/article-7/index.html')), 'the link is removed').toBe(false);
      expect(tree(listed)).toEqual(tree(plain));
    }
    expect(readFileSync(outside, 'utf8')).toBe('must stay');
  });

  test("a folder changed just before its output's manifest was made is not vouched for: the next inventory lists it", async () => {
    const cache = scratch();
    const out = scratch();
    mkdirSync(path.join(out, 'a'));
    writeFileSync(path.join(out, 'a/index.html'), 'old');
    const answer = { ok: true, diagnostics: [], pages: 1 } as unknown as Parameters<typeof writeManifest>[3];
    writeManifest(
      cache,
      out,
      { code: { renderModule: 'test:render', assets: {}, htmlTwins: true }, check: 'data', options: 'options' },
      answer,
      new Set(['a/index.html']),
      new Map(),
      [],
    );
    const recorded = recordedFolder(manifestFileOf(cache, out)!)!;
    expect(recorded.files).toEqual(['a/index.html']);
    expect(recorded.dirs.sort()).toEqual(['', 'a']);
    // Both were made a moment ago: a change in the same tick of the clock would not move their stats.
    expect(recorded.stats).toEqual(['', '']);
    writeFileSync(path.join(out, 'a/new.html'), 'new');
    expect([...takeInventory(out, 0, 1, undefined, recorded).files].sort()).toEqual(['a/index.html', 'a/new.html']);
    // Another folder's manifest is not this one's.
    expect(recordedFolder(manifestFileOf(cache, scratch())!)).toBeNull();
  });
});

describe('client assets', () => {
  test('entry URLs come from the manifest; a missing bundle says to run npm run compile', async () => {
    const client = scratch();
    expect(() => readAssetRefs(client)).toThrow(AssetsMissingError);
    expect(() => readAssetRefs(client)).toThrow(/npm run compile/);
    mkdirSync(path.join(client, '.vite'));
    mkdirSync(path.join(client, 'assets'));
    const manifest = {
      'main.ts': { file: 'assets/main-a1.js', isEntry: true },
      'styles.css': { file: 'assets/styles-b2.css', isEntry: true },
      'search.ts': { file: 'assets/search-c3.js', isEntry: true },
    };
    writeFileSync(path.join(client, '.vite', 'manifest.json'), JSON.stringify(manifest));
    expect(() => readAssetRefs(client)).toThrow(/styles-b2\.css is named by the manifest but missing/);
    for (const f of ['main-a1.js', 'styles-b2.css', 'search-c3.js']) writeFileSync(path.join(client, 'assets', f), f);
    expect(readAssetRefs(client)).toEqual({ css: '/assets/styles-b2.css', js: '/assets/main-a1.js', search: '/assets/search-c3.js' });
    const out = scratch();
    expect(await copyAssets(client, siteWriter(out))).toEqual(['assets/main-a1.js', 'assets/search-c3.js', 'assets/styles-b2.css']);
    expect(readFileSync(path.join(out, 'assets', 'styles-b2.css'), 'utf8')).toBe('styles-b2.css');
  });
});

describe('images of data/images/', () => {
  test('are published at their URL, and refused once their bytes are not those the check measured', async () => {
    const from = scratch();
    mkdirSync(path.join(from, 'photos'));
    const file = path.join(from, 'photos', 'a.png');
    writeFileSync(file, 'png bytes');
    const image = { url: '/images/photos/a.png', file: 'data/images/photos/a.png', path: file, size: 9, digest: digestOf(Buffer.from('png bytes')) };
    const out = scratch();
    expect(await publishImages(siteWriter(out), [image])).toEqual(['images/photos/a.png']);
    expect(readFileSync(path.join(out, 'images/photos/a.png'), 'utf8')).toBe('png bytes');
    writeFileSync(file, 'PNG bytes'); // same size, other bytes
    await expect(publishImages(siteWriter(scratch()), [image])).rejects.toThrow(`${file} changed during the build, after it was checked; run the build again`);
  });

  /** A JPEG 800×400 as stored, with `orientation` in its EXIF data (6: shown turned a quarter clockwise). */
  const photo = async (orientation?: number) => {
    const sharp = (await import('sharp')).default;
    const image = sharp({ create: { width: 800, height: 400, channels: 3, background: '#c98a2b' } }).composite([
      { input: { create: { width: 200, height: 400, channels: 3, background: '#1d4d2b' } }, left: 0, top: 0 },
    ]);
    return (orientation ? image.withMetadata({ orientation }) : image).jpeg({ quality: 90 }).toBuffer();
  };
  /** The images of a data folder holding `files` under images/, as the load stage reads them (pixel size upright). */
  const loaded = (files: Record<string, Buffer>) => {
    const root = scratch();
    mkdirSync(path.join(root, 'images'));
    for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(root, 'images', name), bytes);
    return readDataDir(root).images.map(({ rel, file, size, digest, width, height }) => ({
      url: `/${rel}`,
      file,
      path: path.join(root, rel),
      size,
      digest,
      width,
      height,
    }));
  };

  test('a photograph gets WebP copies of its shape, upright by its EXIF orientation, the same bytes every time', async () => {
    const images = loaded({ 'a.jpg': await photo(), 'b.jpg': await photo(6) });
    // b.jpg is stored 800×400 and shown 400×800: the load stage reads it so.
    expect(images.map((i) => [i.url, i.width, i.height])).toEqual([
      ['/images/a.jpg', 800, 400],
      ['/images/b.jpg', 400, 800],
    ]);
    const out = [scratch(), scratch()];
    for (const o of out) {
      expect(await publishImages(siteWriter(o), images)).toEqual([
        'images/a.jpg',
        'images/a-320w.webp',
        'images/a-640w.webp',
        'images/b.jpg',
        'images/b-320w.webp',
      ]);
    }
    const { imageSize } = await import('image-size');
    expect(imageSize(readFileSync(path.join(out[0], 'images/a-640w.webp')))).toMatchObject({ type: 'webp', width: 640, height: 320 });
    expect(imageSize(readFileSync(path.join(out[0], 'images/b-320w.webp')))).toMatchObject({ type: 'webp', width: 320, height: 640 });
    for (const f of ['images/a-320w.webp', 'images/a-640w.webp', 'images/b-320w.webp']) {
      expect(readFileSync(path.join(out[0], f)).equals(readFileSync(path.join(out[1], f))), f).toBe(true);
    }
  });

  test('copies come from the build cache when it has them, and go into it when it does not', async () => {
    const cache = scratch();
    const [image] = loaded({ 'a.jpg': await photo() });
    await publishImages(siteWriter(scratch()), [image], cache);
    const cached = readdirSync(path.join(cache, 'images')).sort();
    expect(cached).toHaveLength(2);
    expect(cached[0]).toMatch(new RegExp(`^${image.digest}-320w-webp80-sharp[\\d.]+\\.webp$`));
    // A marked cache entry shows up in the output: the copy was not encoded again.
    writeFileSync(path.join(cache, 'images', cached[0]), 'from the cache');
    const out = scratch();
    await publishImages(siteWriter(out), [image], cache);
    expect(readFileSync(path.join(out, 'images/a-320w.webp'), 'utf8')).toBe('from the cache');

    // A copy unused for longer than COPY_CACHE_DAYS goes; a copy used is touched and stays, however old it was.
    const long = new Date(Date.now() - (COPY_CACHE_DAYS + 1) * 86_400_000);
    writeFileSync(path.join(cache, 'images', 'stale-320w.webp'), 'an old photo');
    for (const f of ['stale-320w.webp', cached[0]]) utimesSync(path.join(cache, 'images', f), long, long);
    await publishImages(siteWriter(scratch()), [image], cache);
    expect(readdirSync(path.join(cache, 'images')).sort()).toEqual(cached);
    expect(statSync(path.join(cache, 'images', cached[0])).mtimeMs).toBeGreaterThan(Date.now() - 60_000);
  });
});
