import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkDataDir, type CheckResult } from '../../src/check/run.js';
import { PARTS_FOLDER } from '../../src/load/cache.js';
import { countCatalogue, sizesOf } from '../../src/check/report.js';
import type { Catalogue } from '../../src/core/catalogue.js';
import { scenario } from './fixture.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function cacheDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-check-cache-'));
  made.push(dir);
  return dir;
}

/** The entries of a cache folder (beside them, the folder of their parts: PARTS_FOLDER). */
const entries = (dir: string): string[] => readdirSync(dir).filter((n) => n !== PARTS_FOLDER);

/** The one entry of a cache folder, and its inode: a rewrite renames a new file into place. */
function entry(dir: string): { path: string; ino: number } {
  const names = entries(dir);
  expect(names).toHaveLength(1);
  const path = join(dir, names[0]);
  return { path, ino: statSync(path).ino };
}

/** Every entity's source file, in catalogue order: the part of a result that toEqual cannot see (a WeakMap). */
function sources(c: Catalogue): unknown {
  return {
    site: c.sourceOf.get(c.site),
    routes: c.routes.map((r) => c.sourceOf.get(r)),
    lists: [c.categories, c.products, c.articles, c.news, c.pages].map((list) => list.map((e) => c.sourceOf.get(e))),
  };
}

function expectSame(actual: CheckResult, expected: CheckResult): void {
  expect(actual.diagnostics).toEqual(expected.diagnostics);
  expect(actual.routes).toEqual(expected.routes);
  expect(actual.sizes).toEqual(expected.sizes);
  expect(actual.catalogue === null).toBe(expected.catalogue === null);
  if (actual.catalogue && expected.catalogue) {
    // valueDigests: the hashes a check that keeps its results adds (tests/check/value-digests.test.ts).
    const { sourceOf: _a, valueDigests: _ad, ...a } = actual.catalogue;
    const { sourceOf: _b, valueDigests: _bd, ...b } = expected.catalogue;
    expect(a).toEqual(b);
    expect(sources(actual.catalogue)).toEqual(sources(expected.catalogue));
  }
}

describe('checkDataDir with a cache', () => {
  it('returns from the cache exactly what loading and checking return', async () => {
    const data = scenario('check-duplicate-route'); // has warnings, so there are diagnostics to compare
    const dir = cacheDir();
    const fresh = await checkDataDir(data, { cacheDir: false });
    expect(readdirSync(dir)).toEqual([]);
    expect(fresh.diagnostics.length).toBeGreaterThan(0);

    const miss = await checkDataDir(data, { cacheDir: dir });
    const written = entry(dir);
    const hit = await checkDataDir(data, { cacheDir: dir });
    expect(entry(dir).ino).toBe(written.ino); // read, not rewritten
    expectSame(miss, fresh);
    expectSame(hit, fresh);
    // What `site check` reports from the sizes is what it would count from the catalogue.
    const counted = countCatalogue(sizesOf(hit.catalogue!), hit.routes, hit.diagnostics).totals;
    expect(countCatalogue(hit.sizes, hit.routes, hit.diagnostics).totals).toEqual(counted);
  });

  it('caches a lean result apart from a whole one, body references included', async () => {
    const data = scenario('check-duplicate-route');
    const dir = cacheDir();
    const fresh = await checkDataDir(data, { cacheDir: false, lean: true });
    const miss = await checkDataDir(data, { cacheDir: dir, lean: true });
    const hit = await checkDataDir(data, { cacheDir: dir, lean: true });
    const whole = await checkDataDir(data, { cacheDir: dir });
    expect(entries(dir)).toHaveLength(2);
    expect(whole.catalogue!.bodies).toBeUndefined();
    expect(whole.catalogue!.articles[0].body.length).toBeGreaterThan(0);
    for (const result of [miss, hit]) {
      expectSame(result, fresh);
      const c = result.catalogue!;
      const refs = [...c.products, ...c.articles, ...c.news].map((e) => c.bodies!.get(e));
      expect(refs.every((r) => r !== undefined)).toBe(true);
      expect(refs).toEqual([...fresh.catalogue!.products, ...fresh.catalogue!.articles, ...fresh.catalogue!.news].map((e) => fresh.catalogue!.bodies!.get(e)));
      expect(c.articles[0].body).toEqual([]);
    }
  });

  it('misses when one byte of one data file changes, and reports the new findings', async () => {
    const data = scenario(null);
    const dir = cacheDir();
    const before = await checkDataDir(data, { cacheDir: dir });
    expect(before.diagnostics).toEqual([]);
    const written = entry(dir);

    const file = join(data, 'products/bulk-curcumin.json');
    const text = readFileSync(file, 'utf8');
    // "id": "<hex>" → one character that is not hex (same length, so only content tells)
    const changed = text.replace(/("id":\s*")(.)/, (_, head: string, c: string) => `${head}${c === 'z' ? 'y' : 'z'}`);
    expect(changed).not.toBe(text);
    expect(changed.length).toBe(text.length);
    writeFileSync(file, changed);

    const after = await checkDataDir(data, { cacheDir: dir });
    expectSame(after, await checkDataDir(data, { cacheDir: false }));
    expect(after.diagnostics).not.toEqual(before.diagnostics);
    expect(entry(dir).ino).not.toBe(written.ino);
  });

  it('caches a catalogue that does not load, and its errors', async () => {
    const data = scenario('load-schema');
    const dir = cacheDir();
    const miss = await checkDataDir(data, { cacheDir: dir });
    const hit = await checkDataDir(data, { cacheDir: dir });
    expect(miss.catalogue).toBeNull();
    expect(miss.sizes).toBeNull();
    expectSame(hit, miss);
    expect(hit.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  });

  it('survives a damaged cache entry: ignores it and writes a good one', async () => {
    const data = scenario(null);
    const dir = cacheDir();
    const fresh = await checkDataDir(data, { cacheDir: dir });
    const { path } = entry(dir);
    const bytes = readFileSync(path);
    bytes[Math.floor(bytes.length * 0.75)] ^= 0x55;
    writeFileSync(path, bytes);
    expectSame(await checkDataDir(data, { cacheDir: dir }), fresh);
    writeFileSync(path, 'garbage');
    expectSame(await checkDataDir(data, { cacheDir: dir }), fresh);
    // A part's file damaged: a miss too, and the part written again.
    const parts = join(dir, PARTS_FOLDER);
    for (const name of readdirSync(parts)) {
      const part = readFileSync(join(parts, name));
      part[Math.floor(part.length / 2)] ^= 0x55;
      writeFileSync(join(parts, name), part);
    }
    expectSame(await checkDataDir(data, { cacheDir: dir }), fresh);
    const repaired = entry(dir);
    expectSame(await checkDataDir(data, { cacheDir: dir }), fresh);
    expect(entry(dir).ino).toBe(repaired.ino);
  });

  it('reads and writes nothing with cacheDir: false', async () => {
    const data = scenario(null);
    const dir = cacheDir();
    await checkDataDir(data, { cacheDir: dir });
    const { path } = entry(dir);
    writeFileSync(path, 'garbage');
    const result = await checkDataDir(data, { cacheDir: false });
    expect(result.catalogue).not.toBeNull();
    expect(readFileSync(path, 'utf8')).toBe('garbage');
  });
});
