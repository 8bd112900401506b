/**
 * A check whose results are kept hashes each file's validated value once,
 * when the file is validated (src/load/value-digest.ts), and keeps the hash
 * with its result; the build's record takes an object's hash from there
 * instead of serialising it again (readDigests in src/model/reads.ts). The
 * two must be the same hash, fresh and after the entry was reused, or every
 * page would render on every build, or a changed value would go unnoticed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Catalogue } from '../../src/core/catalogue.js';
import { checkDataDir } from '../../src/check/run.js';
import { createSiteModel } from '../../src/model/model.js';
import { readDigests } from '../../src/model/reads.js';
import { ASSETS } from '../render/fixture.js';

const work = mkdtempSync(path.join(tmpdir(), 'site-value-digests-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Every map entry of the model whose value has a kept hash: that hash beside the one readDigests makes itself. */
function compare(catalogue: Catalogue): { compared: number; differing: string[] } {
  const made = catalogue.valueDigests!;
  const model = createSiteModel(catalogue, ASSETS);
  const fresh = readDigests(model);
  const taken = readDigests(model, undefined, (value) => made.get(value));
  let compared = 0;
  const differing: string[] = [];
  for (const [field, value] of Object.entries(model)) {
    if (!(value instanceof Map)) continue;
    for (const [key, entry] of value) {
      if (typeof entry !== 'object' || entry === null || made.get(entry) === undefined) continue;
      const name = `${field}\0${key}`;
      compared++;
      if (fresh(name) !== taken(name)) differing.push(name);
    }
  }
  return { compared, differing };
}

describe("the values' kept hashes", () => {
  it('are the hashes the record makes, when the files are validated and when their results are reused', async () => {
    const data = path.join(work, 'data');
    cpSync(path.resolve('data'), data, { recursive: true });
    const cacheDir = path.join(work, 'cache');

    const first = await checkDataDir(data, { lean: true, cacheDir });
    expect(first.validated).toBeGreaterThan(1000);
    const fresh = compare(first.catalogue!);
    expect(fresh.compared).toBeGreaterThan(1000);
    expect(fresh.differing).toEqual([]);

    // One article edited: it is validated again, every other result (and its hash) comes from the entry.
    const file = path.join(data, 'articles', '5-htp-benefits-what-research-says.json');
    const article = JSON.parse(readFileSync(file, 'utf8'));
    article.headline = `${article.headline} (revised)`;
    writeFileSync(file, JSON.stringify(article, null, 2));
    const second = await checkDataDir(data, { lean: true, cacheDir });
    expect(second.validated).toBe(1);
    const reused = compare(second.catalogue!);
    expect(reused.compared).toBe(fresh.compared);
    expect(reused.differing).toEqual([]);
    const edited = second.catalogue!.articles.find((a) => a.headline === article.headline)!;
    const before = first.catalogue!.articles.find((a) => a.id === edited.id)!;
    expect(second.catalogue!.valueDigests!.get(edited)).not.toBe(first.catalogue!.valueDigests!.get(before));

    // A check whose results are not kept hashes nothing.
    expect((await checkDataDir(data, { lean: true, cacheDir: false })).catalogue!.valueDigests).toBeUndefined();
  });
});
