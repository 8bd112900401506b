/**
 * The lean catalogue `site build` loads (src/load/lean.ts): bodies dropped
 * once validated, read back from their files by the thread that renders
 * them. Everything derived from it must equal what the whole catalogue gives.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCatalogue, resolveRoutes } from '../../src/check/index.js';
import { checkDataDir } from '../../src/check/run.js';
import { searchDocuments } from '../../src/emit/files/search-index.js';
import { loadCatalogue } from '../../src/load/index.js';
import { BodyChangedError, readBody } from '../../src/load/lean.js';
import { readDataDir } from '../../src/load/read.js';
import { validateData } from '../../src/load/index.js';
import { BASE_DATA, scenario } from '../check/fixture.js';

describe('a lean load', () => {
  it('drops every product description and article and news body, and reads each back exactly as validated', async () => {
    const whole = (await loadCatalogue(BASE_DATA)).catalogue!;
    const lean = (await loadCatalogue(BASE_DATA, { lean: true })).catalogue!;
    expect(whole.bodies).toBeUndefined();
    const pairs = [
      ...whole.products.map((p, i) => [p.description, lean.products[i], lean.products[i].description] as const),
      ...whole.articles.map((a, i) => [a.body, lean.articles[i], lean.articles[i].body] as const),
      ...whole.news.map((n, i) => [n.body, lean.news[i], lean.news[i].body] as const),
    ];
    expect(pairs.length).toBeGreaterThan(5);
    for (const [blocks, entity, dropped] of pairs) {
      expect(blocks.length).toBeGreaterThan(0);
      expect(dropped).toEqual([]);
      const ref = lean.bodies!.get(entity)!;
      expect(ref.path).toBe(join(lean.root, lean.sourceOf.get(entity)!.replace(/^.*?data\//, '')));
      expect(readBody(ref)).toEqual(blocks);
    }
    // Everything else is the whole catalogue's.
    const strip = <T extends object>(list: T[], field: string) => list.map((e) => ({ ...e, [field]: [] }));
    expect(lean.products).toEqual(strip(whole.products, 'description'));
    expect(lean.articles).toEqual(strip(whole.articles, 'body'));
    expect(lean.pages).toEqual(whole.pages);
    expect(lean.routes).toEqual(whole.routes);
  });

  it('reports the same findings about links written in bodies as a whole load', async () => {
    const data = scenario('check-unsafe-link'); // a javascript: link and a link to no route, in a news body
    const whole = (await loadCatalogue(data)).catalogue!;
    const lean = validateData(readDataDir(data), { lean: true }).catalogue!;
    const found = checkCatalogue(lean);
    expect(found.map((d) => d.code)).toEqual(expect.arrayContaining(['check/unsafe-link', 'check/broken-link']));
    expect(found).toEqual(checkCatalogue(whole));
  });

  it('indexes the same search text as a whole load', async () => {
    const whole = (await loadCatalogue(BASE_DATA)).catalogue!;
    const lean = (await loadCatalogue(BASE_DATA, { lean: true })).catalogue!;
    const docs = searchDocuments(lean, resolveRoutes(lean));
    expect(docs.length).toBeGreaterThan(5);
    // A lean document also says what its text was made from (its file's sha1 and the text cap), for the search cache.
    expect(docs.every((d) => /^[0-9a-f]{40}:\d+$/.test(d.source ?? ''))).toBe(true);
    expect(docs.map(({ source: _source, ...doc }) => doc)).toEqual(searchDocuments(whole, resolveRoutes(whole)));
  });

  it('validates files past the bytes a snapshot holds by reading them again', () => {
    const held = validateData(readDataDir(BASE_DATA), { lean: true });
    const reread = validateData(readDataDir(BASE_DATA, 0), { lean: true });
    expect(reread.diagnostics).toEqual(held.diagnostics);
    expect(reread.catalogue!.products).toEqual(held.catalogue!.products);
  });

  it('refuses to validate a file that changed after it was read', () => {
    const data = scenario(null);
    const snapshot = readDataDir(data, 0); // holds no bytes: validation reads each file again
    appendFileSync(join(data, 'news/expo-2024.json'), '\n');
    const { catalogue, diagnostics } = validateData(snapshot, { lean: true });
    expect(catalogue).toBeNull();
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'load/unreadable-file',
        file: `${snapshot.base}/news/expo-2024.json`,
        message: expect.stringContaining('changed while it was being read'),
      }),
    ]);
  });

  it('refuses a body whose file changed after the check', async () => {
    const data = scenario(null);
    const { catalogue } = await checkDataDir(data, { lean: true, cacheDir: false });
    const news = catalogue!.news[0];
    const ref = catalogue!.bodies!.get(news)!;
    expect(readBody(ref).length).toBeGreaterThan(0);
    const file = join(data, 'news/expo-2024.json');
    appendFileSync(file, ' ');
    expect(readFileSync(file, 'utf8').endsWith(' ')).toBe(true);
    expect(() => readBody(ref)).toThrow(BodyChangedError);
    expect(() => readBody(ref)).toThrow(/changed during the build, after it was checked/);
  });
});
