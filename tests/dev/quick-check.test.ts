/**
 * The quick re-check of `site dev` gives what the full check gives after the
 * same edit (the catalogue, its files, the routes, the findings but for the
 * warnings' line and column, the rendered page), and declines (null) every
 * change it cannot follow, so that the full check runs instead.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkDataDir, type CheckResult } from '../../src/check/run.js';
import type { Catalogue } from '../../src/core/catalogue.js';
import { type QuickBase, quickCheck } from '../../src/dev/quick-check.js';
import { createSiteModel, renderRoute } from '../../src/render/index.js';
import { ARTICLE, editJson, type Sandbox, sandbox } from './helpers.js';

const ASSETS = { css: '/assets/s.css', js: '/assets/m.js', search: '/assets/q.js' };
const COLLECTIONS = ['categories', 'products', 'articles', 'news', 'pages'] as const;

let box: Sandbox;
let base: QuickBase;

const full = async (): Promise<CheckResult & { catalogue: Catalogue }> => {
  const r = await checkDataDir(box.data, { cacheDir: false });
  expect(r.catalogue).not.toBeNull();
  return r as CheckResult & { catalogue: Catalogue };
};

/** What must agree between two results: positions of warnings aside (the quick check does not look them up). */
function comparable(r: CheckResult & { catalogue: Catalogue }) {
  const c = r.catalogue;
  return {
    diagnostics: r.diagnostics.map(({ line: _l, column: _c, ...d }) => d),
    routes: r.routes,
    sizes: r.sizes,
    site: c.site,
    routeRecords: c.routes,
    images: c.images,
    ...Object.fromEntries(COLLECTIONS.map((k) => [k, c[k]])),
    sources: COLLECTIONS.flatMap((k) => (c[k] as object[]).map((e) => c.sourceOf.get(e))),
    routeSources: [c.sourceOf.get(c.site), c.sourceOf.get(c.routes), ...c.routes.map((r) => c.sourceOf.get(r))],
  };
}

beforeEach(async () => {
  box = sandbox();
  base = { result: await full(), dataDir: box.data };
});
afterEach(() => box.cleanup());

describe('quickCheck', () => {
  it('gives the full check result after edits to an article, a product name and a category membership', async () => {
    const product = readdirSync(join(box.data, 'products')).sort()[3];
    editJson(box.data, ARTICLE.file, (a) => {
      a.headline = 'A new headline';
      (a.body as unknown[]).push({ type: 'paragraph', text: 'One more paragraph.' });
    });
    const other = base.result.catalogue.categories.find((c) => c.id !== JSON.parse(readFileSync(join(box.data, 'products', product), 'utf8')).category);
    editJson(box.data, `products/${product}`, (p) => {
      p.name = 'Renamed Extract';
      p.listedIn = [other!.id];
    });
    const changed = [join(box.data, ARTICLE.file), join(box.data, 'products', product)];
    const quick = await quickCheck(base, changed);
    const truth = await full();
    expect(truth.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(quick).not.toBeNull();
    expect(comparable(quick as typeof truth)).toEqual(comparable(truth));
    // And the page reads the same from either.
    const route = truth.routes.find((r) => r.path === ARTICLE.path)!;
    const html = renderRoute(createSiteModel(quick!.catalogue!, ASSETS), route);
    expect(html).toContain('A new headline');
    expect(html).toBe(renderRoute(createSiteModel(truth.catalogue, ASSETS), route));
  });

  it('declines what it cannot follow: an error, a new file, a removed file, site.json, routes.json, a broken reference', async () => {
    const article = join(box.data, ARTICLE.file);
    const original = readFileSync(article, 'utf8');

    editJson(box.data, ARTICLE.file, (a) => {
      a.date = 'not a date';
    });
    expect(await quickCheck(base, [article])).toBeNull();
    writeFileSync(article, '{ not json');
    expect(await quickCheck(base, [article])).toBeNull();
    writeFileSync(article, original);

    const added = join(box.data, 'articles', 'brand-new.json');
    writeFileSync(added, original);
    expect(await quickCheck(base, [added])).toBeNull();
    expect(await quickCheck(base, [join(box.data, 'articles', 'gone.json')])).toBeNull();
    expect(await quickCheck(base, [join(box.data, 'site.json')])).toBeNull();
    expect(await quickCheck(base, [join(box.data, 'routes.json')])).toBeNull();

    const product = readdirSync(join(box.data, 'products')).sort()[0];
    editJson(box.data, `products/${product}`, (p) => {
      p.category = 'ffffffffffffffffffffffffffffffff';
    });
    expect(await quickCheck(base, [join(box.data, 'products', product)])).toBeNull();
    expect((await checkDataDir(box.data, { cacheDir: false })).diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });
});
