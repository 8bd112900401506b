import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { checkCatalogue, compareDiagnostics, outputFileOf, pathProblems, resolveRoutes } from '../../src/check/index.js';
import { loadCatalogue } from '../../src/load/index.js';
import type { Catalogue } from '../../src/core/catalogue.js';
import { CODES } from '../../src/core/codes.js';
import { load as cheerio } from 'cheerio';
import { createSiteModel } from '../../src/model/model.js';
import { renderRoute } from '../../src/render/page.js';
import { BASE_DATA, scenario } from './fixture.js';

async function load(data: string): Promise<Catalogue> {
  const { catalogue, diagnostics } = await loadCatalogue(data);
  expect(diagnostics).toEqual([]);
  return catalogue!;
}

/** Diagnostics of a scenario as [severity, code, file inside data/, pointer] rows, plus the full list. */
async function run(name: string): Promise<{ rows: string[][]; diagnostics: Diagnostic[]; data: string }> {
  const data = scenario(name);
  const diagnostics = checkCatalogue(await load(data));
  return { rows: diagnostics.map((d) => [d.severity, d.code, d.file.slice(data.length + 1), d.pointer]), diagnostics, data };
}

describe('checkCatalogue on the valid base catalogue', () => {
  it('finds nothing', async () => {
    expect(checkCatalogue(await load(BASE_DATA))).toEqual([]);
  });
});

// Each scenario is the base catalogue plus one fault (tests/fixtures/check-<name>/); exactly these diagnostics follow.
const SCENARIOS: Array<[string, string[][]]> = [
  ['check-duplicate-route', [['warning', 'check/duplicate-route', 'routes.json', '/28']]],
  ['check-conflicting-route', [['error', 'check/conflicting-route', 'routes.json', '/28']]],
  ['check-wrong-grandid', [['error', 'check/grandid-mismatch', 'routes.json', '/10/grandId']]],
  ['check-unexpected-grandid', [['error', 'check/unexpected-grandid', 'routes.json', '/4/grandId']]],
  ['check-missing-page', [['error', 'check/missing-page', 'routes.json', '']]],
  ['check-extra-page', [['error', 'check/extra-page', 'routes.json', '/28/page']]],
  ['check-api-paged', [['error', 'check/extra-page', 'routes.json', '/28/page']]],
  ['check-traversal-slug', [['error', 'check/path-traversal', 'routes.json', '/20/path']]],
  ['check-encoded-traversal', [['error', 'check/path-traversal', 'routes.json', '/20/path']]],
  ['check-path-query', [['error', 'check/path-invalid-char', 'routes.json', '/20/path']]],
  [
    'check-legacy-slug',
    [
      ['warning', 'check/path-edge-hyphen', 'routes.json', '/20/path'],
      ['warning', 'check/path-legacy-case', 'routes.json', '/20/path'],
    ],
  ],
  ['check-unknown-screen', [['error', 'check/unknown-screen', 'routes.json', '/28/screen']]],
  [
    'check-name-convention',
    [
      ['error', 'check/route-name', 'routes.json', '/4/name'],
      ['error', 'check/route-name', 'routes.json', '/6/name'],
    ],
  ],
  ['check-nodeid-not-hex', [['warning', 'check/nodeid-not-hex', 'routes.json', '/13/nodeid']]],
  ['check-type-mismatch', [['error', 'check/type-mismatch', 'routes.json', '/14/type']]],
  ['check-orphan-product', [['error', 'check/missing-detail-route', 'products/reishi-mushroom-extract-powder.json', '/id']]],
  ['check-missing-detail-route', [['error', 'check/missing-detail-route', 'articles/berberine-dosage-guide.json', '/id']]],
  ['check-multiple-detail-routes', [['error', 'check/multiple-detail-routes', 'news/expo-2024.json', '/id']]],
  ['check-route-without-content', [['error', 'check/route-without-content', 'routes.json', '/28/nodeid']]],
  [
    'check-same-output-file',
    [
      ['error', 'check/output-collision', 'routes.json', '/28/path'],
      ['warning', 'check/path-trailing-slash', 'routes.json', '/28/path'],
    ],
  ],
  [
    'check-case-collision',
    [
      ['warning', 'check/output-case-collision', 'routes.json', '/28/path'],
      ['warning', 'check/path-legacy-case', 'routes.json', '/28/path'],
    ],
  ],
  ['check-empty-meta', [['warning', 'check/empty-meta', 'routes.json', '/12/meta']]],
  [
    'check-unknown-reference',
    [
      ['error', 'check/unknown-reference', 'articles/what-is-curcumin.json', '/relatedProducts/0'],
      ['error', 'check/unknown-reference', 'categories/api.json', '/parentId'],
      ['error', 'check/unknown-reference', 'pages/home.json', '/featuredProducts/1'],
      ['error', 'check/unknown-reference', 'products/ginger-extract.json', '/listedIn/0'],
    ],
  ],
  ['check-duplicate-slug', [['error', 'check/duplicate-slug', 'products/ginger-extract.json', '/slug']]],
  ['check-unsafe-slug', [['error', 'check/unsafe-slug', 'products/ginger-extract.json', '/slug']]],
  [
    // data/images/: a clash with the logo, a scripted SVG nothing shows, a 5,000-pixel strip a news item shows, and one
    // product naming seven images (a photo declared in another shape, a data: URL, a missing file, a product artwork,
    // the photo again at 2× with a query, an http: URL, an https: URL).
    'check-images',
    [
      ['error', 'check/unsafe-svg', 'images/badge.svg', ''],
      ['info', 'check/unused-image', 'images/badge.svg', ''],
      ['error', 'check/image-clash', 'images/logo.svg', ''],
      ['warning', 'check/image-heavy', 'images/photos/strip.png', ''],
      ['warning', 'check/image-size-mismatch', 'products/ginger-extract.json', '/images/0'],
      ['error', 'check/unsafe-image', 'products/ginger-extract.json', '/images/1/src'],
      ['error', 'check/missing-image', 'products/ginger-extract.json', '/images/2/src'],
      ['error', 'check/unsafe-image', 'products/ginger-extract.json', '/images/5/src'],
    ],
  ],
  [
    'check-duplicate-id',
    [
      ['error', 'check/duplicate-id', 'articles/what-is-curcumin.json', '/id'],
      ['error', 'check/route-without-content', 'routes.json', '/20/nodeid'],
    ],
  ],
  ['check-category-without-route', [['error', 'check/category-without-route', 'categories/api.json', '/id']]],
  ['check-category-path-mismatch', [['error', 'check/category-path-mismatch', 'routes.json', '/7/path']]],
  ['check-page-without-route', [['error', 'check/page-without-route', 'pages/thanks.json', '/id']]],
  [
    'check-duplicate-page',
    [
      ['error', 'check/duplicate-page', 'routes.json', '/28/page'],
      ['error', 'check/page-path', 'routes.json', '/28/path'],
    ],
  ],
  ['check-missing-home', [['error', 'check/missing-home', 'routes.json', '']]],
  ['check-page-path', [['error', 'check/page-path', 'routes.json', '/6/path']]],
  ['check-unexpected-page', [['error', 'check/unexpected-page', 'routes.json', '/14/page']]],
  [
    'check-category-cycle',
    [
      ['error', 'check/category-cycle', 'categories/herb-extract.json', '/parentId'],
      ['error', 'check/category-cycle', 'categories/mushroom-extract.json', '/parentId'],
    ],
  ],
  [
    'check-unsafe-link',
    [
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/1/href'],
      ['error', 'check/broken-link', 'news/expo-2024.json', '/body/0/text/3/href'],
    ],
  ],
  [
    // URLs that hide their scheme or their host from a reader, as browsers read them (WHATWG URL standard).
    'check-obfuscated-link',
    [
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/1/href'],
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/2/href'],
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/3/href'],
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/4/href'],
      ['error', 'check/unsafe-link', 'news/expo-2024.json', '/body/0/text/5/href'],
      ['error', 'check/invalid-link', 'news/expo-2024.json', '/body/0/text/6/href'],
      ['error', 'check/invalid-link', 'news/expo-2024.json', '/body/0/text/7/href'],
      ['error', 'check/unsafe-link', 'pages/home.json', '/banners/0/link'],
      ['error', 'check/unsafe-image', 'products/ginger-extract.json', '/images/0/src'],
      ['error', 'check/unsafe-image', 'products/ginger-extract.json', '/images/1/src'],
    ],
  ],
];

describe('checkCatalogue finds exactly the fault of each scenario', () => {
  it.each(SCENARIOS)('%s', async (name, expected) => {
    const { rows, diagnostics } = await run(name);
    expect(rows).toEqual(expected);
    // Every code is registered, with the severity it is reported at.
    for (const d of diagnostics) expect([d.code, d.severity]).toEqual([d.code, CODES[d.code as keyof typeof CODES]?.severity]);
  });
});

describe('diagnostic messages an editor can act on', () => {
  const message = async (name: string, code: string) => (await run(name)).diagnostics.find((d) => d.code === code)!.message;

  it('a disguised link or image says what browsers would read, with its control characters escaped', async () => {
    const { diagnostics } = await run('check-obfuscated-link');
    const at = (ptr: string) => diagnostics.find((d) => d.pointer === ptr)!.message;
    expect(at('/body/0/text/1/href')).toBe(
      'Link "java\\tscript:alert(1)" uses the scheme "javascript:", hidden by characters that browsers remove before reading it; the page would show its text without a link. Use https:, mailto:, tel: or a path on this site.',
    );
    expect(at('/banners/0/link')).toContain('has the HTML character reference "&#x6A;" (read as HTML it would be a javascript: URL)');
    expect(at('/body/0/text/5/href')).toContain('has a backslash, which browsers read as "/"');
    expect(at('/images/1/src')).toBe(
      'Image "\\u0001javascript:alert(1)" uses the scheme "javascript:", hidden by characters that browsers remove before reading it, so it is not shown: an image is a file of data/images/ (src "/images/<file>") or an https: URL.',
    );
    expect(at('/body/0/text/2/href')).toContain('uses the scheme "javascript:", hidden by characters that browsers remove');
  });

  it('a conflicting duplicate lists both declarations and what differs', async () => {
    expect(await message('check-conflicting-route', 'check/conflicting-route')).toBe(
      'Route /herb-extract/ginger-extract is declared twice with different meta.title: /12 and /28; keep one declaration.',
    );
  });

  it('a slug that would write the artwork outside its folder names the file it would name', async () => {
    expect(await message('check-unsafe-slug', 'check/unsafe-slug')).toBe(
      `The slug "../../ginger" names this product's artwork file, /images/products/<slug>.svg, and cannot: expected letters, digits, '-', '_' or '.' (no '/', '\\' or '..').`,
    );
  });

  it('an image file of another shape than declared says what to declare', async () => {
    expect(await message('check-images', 'check/image-size-mismatch')).toBe(
      'Image /images/photos/ginger.png is 12×9 pixels, but width 800 and height 800 are declared, another shape: browsers keep the declared shape free while it loads, so the page jumps when it arrives. Declare 12 and 9.',
    );
    expect(await message('check-images', 'check/image-heavy')).toMatch(
      /^This image is \d+ KB, 5000×10 pixels\. The build makes smaller copies for lists and phones, but wide screens, zoom and link previews load this file itself\. Save it at most 4096 pixels on its longer side and under 1024 KB/,
    );
  });

  it("a file that would take the URL of a photograph's copy, or a second photograph of the same name, clashes", async () => {
    const data = scenario('check-images');
    const strip = readFileSync(join(data, 'images/photos/strip.png'));
    writeFileSync(join(data, 'images/photos/strip.jpg'), strip); // same name, other extension: the same copies
    writeFileSync(join(data, 'images/photos/strip-640w.webp'), strip); // the name of strip.png's 640-pixel copy
    const clashes = checkCatalogue(await load(data))
      .filter((d) => d.code === 'check/image-clash')
      .map((d) => [d.file.slice(data.length + 1), d.message]);
    expect(clashes).toEqual([
      [
        'images/logo.svg',
        "This file would be published at /images/logo.svg, where the build writes the site's logo; rename the file (and the src that names it).",
      ],
      [
        'images/photos/strip-640w.webp',
        `This file would be published at /images/photos/strip-640w.webp, where the build writes a 640-pixel copy of ${data}/images/photos/strip.jpg; rename the file (and the src that names it).`,
      ],
      // Diagnostics of one file and code are in the order of their messages: 1280 before 320.
      ...[1280, 320, 640, 960].map((w) => [
        'images/photos/strip.png',
        `The build's ${w}-pixel copy of this file, /images/photos/strip-${w}w.webp, would be a ${w}-pixel copy of ${data}/images/photos/strip.jpg as well; rename one of the two files.`,
      ]),
    ]);
  });

  it('an identical duplicate says the build uses one', async () => {
    expect(await message('check-duplicate-route', 'check/duplicate-route')).toContain('identically to /12; the build uses one');
  });

  it('an unknown screen kind is the spec\'s "Unknown middleware {name}"', async () => {
    expect(await message('check-unknown-screen', 'check/unknown-screen')).toMatch(/^Unknown middleware landing: route \/landing names a screen kind/);
  });

  it('a missing page names the count, the page size and the route to add', async () => {
    expect(await message('check-missing-page', 'check/missing-page')).toBe(
      'Category "Herb Extract" (/herb-extract) lists 3 products at 2 per page, so it has pages 1 to 2; add the route /herb-extract/page-2 (page 2, nodeid "d9d828a4630f62ac7d96639cb1b299ed").',
    );
  });

  it('a bare-list-only category with a page route says it has no pages', async () => {
    expect(await message('check-api-paged', 'check/extra-page')).toContain('lists 0 products at 2 per page, so it has no pages (bare list only)');
  });

  it('grandId names both ids', async () => {
    expect(await message('check-wrong-grandid', 'check/grandid-mismatch')).toBe(
      'Product route /herb-extract/bulk-curcumin has grandId "29d450f06e32dcfca283c19be837bfba" but its product\'s category is "d9d828a4630f62ac7d96639cb1b299ed"; set grandId to the category\'s node id.',
    );
  });

  it('two routes writing one file list both', async () => {
    expect(await message('check-same-output-file', 'check/output-collision')).toBe(
      'Routes /thanks (/27) and /thanks/ (/28) are both written to dist/thanks/index.html; keep one path.',
    );
  });

  it('a name convention error says the expected name', async () => {
    const { diagnostics } = await run('check-name-convention');
    expect(diagnostics.map((d) => d.message)).toEqual([
      'Route /herb-extract is named "herb-extract"; a category route (bare category list) is named "productsclass".',
      'Route /herb-extract/page-2 is named "productsclass"; a category route (page 2 of a category list) is named "d9d828a4630f62ac7d96639cb1b299ed".',
    ]);
  });

  it('empty meta lists the empty fields and the fallback', async () => {
    expect(await message('check-empty-meta', 'check/empty-meta')).toBe(
      'Route /herb-extract/ginger-extract has an empty meta title, description and keywords; the build falls back to text made from the content. Write them for better search results.',
    );
  });
});

describe('positions', () => {
  it('carry the line and column of the pointed-at field', async () => {
    const { diagnostics } = await run('check-wrong-grandid');
    // routes.json is pretty-printed: route 10 starts on line 125, its grandId is the 6th line of it.
    expect(diagnostics.map((d) => [d.line, d.column])).toEqual([[133, 5]]);
  });

  it('use the locate option when given', async () => {
    const catalogue = await load(scenario('check-type-mismatch'));
    const diagnostics = checkCatalogue(catalogue, { locate: (_file, ptr) => ({ line: ptr.length, column: 7 }) });
    expect(diagnostics.map((d) => [d.line, d.column])).toEqual([[8, 7]]);
  });
});

describe('pathProblems', () => {
  const codes = (p: string) => pathProblems(p).map((x) => `${x.severity} ${x.code}`);
  it.each([
    ['/', []],
    ['/herb-extract/bulk-curcumin', []],
    ['/search/404', []],
    ['herb-extract', ['error check/path-not-absolute']],
    ['/a/../b', ['error check/path-traversal']],
    ['/a/./b', ['error check/path-traversal']],
    ['/..', ['error check/path-traversal']],
    ['/a\\b', ['error check/path-traversal']],
    ['/a/%2E%2E/b', ['error check/path-traversal']],
    ['/a%2fb', ['error check/path-traversal']],
    ['/a%20b', ['error check/path-invalid-char']],
    ['/a\u0000b', ['error check/path-invalid-char']],
    ['/a b', ['error check/path-invalid-char']],
    ['/a#top', ['error check/path-invalid-char']],
    ['/a:b', ['error check/path-invalid-char']],
    ['/a//b', ['error check/path-empty-segment']],
    ['/assets', ['error check/path-reserved']],
    ['/sitemap.xml', ['error check/path-reserved']],
    ['/404.html', ['error check/path-reserved']],
    ['/500.html', ['error check/path-reserved']],
    ['/_headers', ['error check/path-reserved']],
    ['/404', ['error check/path-reserved']],
    ['/500/', ['error check/path-reserved']],
    ['/robots.txt', ['error check/path-reserved']],
    ['/sitemap-2.xml', ['error check/path-reserved']],
    ['/Assets/main', ['error check/path-reserved']],
    ['/images/logo.svg', ['error check/path-reserved']],
    ['/search/entry.json', ['error check/path-reserved']],
    ['/search/index-0123abcd.json', ['error check/path-reserved']],
    ['/index.html', ['error check/path-reserved']],
    ['/search/index', []],
    ['/knowledge/.hidden', ['error check/path-dot-segment']],
    ['/.well-known/security.txt', ['error check/path-dot-segment']],
    ['/knowledge/x.html', []],
    ['/' + 'a'.repeat(256), ['error check/path-too-long']],
    ['/knowledge/What-Is-Inulin', ['warning check/path-legacy-case']],
    ['/knowledge/-what-is-inulin', ['warning check/path-edge-hyphen']],
    ['/knowledge/what-is-inulin-', ['warning check/path-edge-hyphen']],
    ['/thanks/', ['warning check/path-trailing-slash']],
  ] as Array<[string, string[]]>)('%j', (path, expected) => {
    expect(codes(path)).toEqual(expected);
  });

  it('never puts a raw control character into a message', () => {
    expect(pathProblems('/a\u0000b')[0].message).toContain('\\u0000');
    expect(pathProblems('/a\u0000b')[0].message).not.toContain('\u0000');
  });
});

describe('routes that pass the path syntax but that the build or a host cannot serve', () => {
  /** The base catalogue with route `from` moved to `to`: the check's errors about that route's path. */
  const pathErrors = async (to: string, from = '/about-us') => {
    const catalogue = await load(scenario(null));
    const index = catalogue.routes.findIndex((r) => r.path === from);
    catalogue.routes[index].path = to;
    return checkCatalogue(catalogue)
      .filter((d) => d.pointer === `/${index}/path`)
      .map((d) => `${d.severity} ${d.code}: ${d.message}`);
  };

  it('a route at the inquiry endpoint of site.json (answered 405 by site serve) is refused, with or without a trailing slash', async () => {
    const [plain] = await pathErrors('/api/inquiry');
    expect(plain).toMatch(
      /^error check\/path-reserved: Route path "\/api\/inquiry" is the inquiry endpoint \(inquiryEndpoint in .*site\.json\), which site serve answers for POST only: the page would answer 405\./,
    );
    expect((await pathErrors('/api/inquiry/'))[0]).toMatch(/^error check\/path-reserved: Route path "\/api\/inquiry\/" is the inquiry endpoint/);
    expect(await pathErrors('/api/inquiry-form')).toEqual([]);
  });

  it('a route at a file the build writes names that file and why', async () => {
    expect(await pathErrors('/_headers')).toEqual([
      'error check/path-reserved: Route path "/_headers" would clash with /_headers, the file of response headers the build writes for Netlify and Cloudflare Pages; choose another path.',
    ]);
    expect(await pathErrors('/404')).toEqual([
      'error check/path-reserved: Route path "/404" would clash with /404, an error page the build writes (hosts serve it for its name with and without ".html"); choose another path.',
    ]);
    expect(await pathErrors('/search/entry.json')).toEqual([
      'error check/path-reserved: Route path "/search/entry.json" would clash with /search/entry.json, the file of the search index the build writes there; choose another path.',
    ]);
  });

  it('a segment starting with "." is refused, naming the segment', async () => {
    expect(await pathErrors('/knowledge/.hidden', '/knowledge/what-is-curcumin')).toEqual([
      'error check/path-dot-segment: Route path "/knowledge/.hidden" has a segment starting with "." (".hidden"): most hosts, and site serve, do not serve such hidden names, so the page would answer 404; give it a name starting with a letter or digit.',
    ]);
  });
});

describe('outputFileOf', () => {
  it('maps a path to its index.html under dist/', () => {
    expect(outputFileOf('/')).toBe('index.html');
    expect(outputFileOf('/herb-extract')).toBe('herb-extract/index.html');
    expect(outputFileOf('/herb-extract/')).toBe('herb-extract/index.html');
    expect(outputFileOf('/search/404')).toBe('search/404/index.html');
  });
});

describe('resolveRoutes', () => {
  it('builds an identically repeated route once and keeps every declaration', async () => {
    const routes = resolveRoutes(await load(scenario('check-duplicate-route')));
    expect(routes).toHaveLength(28);
    const ginger = routes.find((r) => r.path === '/herb-extract/ginger-extract')!;
    expect(ginger.declarations).toEqual(['/12', '/28']);
    expect(ginger.output).toBe('herb-extract/ginger-extract/index.html');
    expect(routes[0]).toMatchObject({ path: '/', output: 'index.html', screen: 'home', declarations: ['/0'] });
  });

  it('leaves out a path that could leave dist/', async () => {
    const routes = resolveRoutes(await load(scenario('check-traversal-slug')));
    expect(routes).toHaveLength(27);
    expect(routes.some((r) => r.path.includes('..'))).toBe(false);
  });

  it('writes each output file once: the first of /thanks and /thanks/', async () => {
    const routes = resolveRoutes(await load(scenario('check-same-output-file')));
    expect(routes.filter((r) => r.output === 'thanks/index.html').map((r) => r.path)).toEqual(['/thanks']);
  });
});

describe('compareDiagnostics', () => {
  it('sorts by file, pointer with numeric indices, then code', () => {
    const d = (file: string, pointer: string, code: string): Diagnostic => ({ code, severity: 'error', file, pointer, message: '' });
    const sorted = [d('b', '', 'x'), d('a', '/10/path', 'a'), d('a', '/9/path', 'b'), d('a', '/9', 'z'), d('a', '/9/path', 'a')].sort(compareDiagnostics);
    expect(sorted.map((x) => `${x.file}${x.pointer} ${x.code}`)).toEqual(['a/9 z', 'a/9/path a', 'a/9/path b', 'a/10/path a', 'b x']);
  });
});

describe('links: the check and the renderer judge alike', () => {
  // Whatever the check lets through renders as a link; whatever it refuses would render as text.
  const HREFS = [
    '/products',
    ' /herb-extract ',
    'https://example.com/a?b=1&c=2',
    'HTTP://example.com',
    'mailto:sales@example.com',
    'tel:+8629123',
    '#inquire',
    '?type=quote',
    'relative/path',
    '\u0001https://example.com/x\u0000 ',
    'https://example.com/a\u0000b',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'java\tscript:alert(1)',
    'java\nscript:alert(1)',
    '\u0001javascript:alert(1)',
    ' \u0000 javascript:alert(1)',
    'java\u0001script:alert(1)',
    'java\u0085script:alert(1)',
    'java\u200bscript:alert(1)',
    '&#106;avascript:alert(1)',
    '&#x6a;avascript:alert(1)',
    '&#106avascript:alert(1)',
    'javascript&colon;alert(1)',
    'https://example.com/?a=1&amp;b=2',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    'https://exa mple.com',
    'https://example.com:99999/',
    'http://',
    '1x:y',
    ' ',
  ];

  it('every link the check passes renders as an anchor, and every one it refuses does not', async () => {
    const data = scenario(null);
    const file = join(data, 'news/expo-2024.json');
    const news = JSON.parse(readFileSync(file, 'utf8'));
    news.body = [{ type: 'paragraph', text: HREFS.map((href, i) => ({ text: `link-${i}`, href })) }];
    writeFileSync(file, JSON.stringify(news));
    const catalogue = await load(data);
    const found = checkCatalogue(catalogue);
    const refused = new Set(
      found
        .filter((d) => d.code === 'check/unsafe-link' || d.code === 'check/invalid-link')
        .map((d) => Number(/^\/body\/0\/text\/(\d+)\/href$/.exec(d.pointer)![1])),
    );
    // eslint-disable-next-line no-control-regex
    expect(found.filter((d) => /[\u0000-\u001f\u007f-\u009f]/.test(d.message))).toEqual([]);
    expect(found.filter((d) => d.code === 'check/broken-link')).toEqual([]);
    const route = catalogue.routes.find((r) => r.screen === 'news-detail')!;
    const $ = cheerio(renderRoute(createSiteModel(catalogue, { css: '/a.css', js: '/a.js', search: '/s.js' }), route));
    const anchors = new Set(
      $('a')
        .toArray()
        .map((a) => $(a).text()),
    );
    const verdicts = HREFS.map((href, i) => [href, refused.has(i) ? 'refused' : 'passed', anchors.has(`link-${i}`) ? 'anchor' : 'text']);
    expect(verdicts.filter(([, check, page]) => (check === 'passed') !== (page === 'anchor'))).toEqual([]);
    expect(verdicts.filter(([, check]) => check === 'passed').map(([href]) => href)).toEqual(HREFS.slice(0, 11));
  });
});
