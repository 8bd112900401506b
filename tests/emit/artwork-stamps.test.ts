/**
 * The product artwork written by its stamp (src/emit/render-pages.ts,
 * previousArtworkStamps): a rebuild into the spare keeps each artwork file
 * whose stat and bytes are the ones its build recorded, without reading it,
 * and replaces any other: one whose bytes were changed, one whose stat moved
 * though its bytes did not. The output is what a fresh build writes.
 */
import { chmodSync, cpSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { build, requireCompiled, SMALL, workDir } from './helpers.js';

const ARTWORK = 'images/products';

describe('the product artwork kept by its stamp', () => {
  beforeAll(() => requireCompiled());

  test('a rebuild into the spare keeps the artwork whose stamp holds, replaces the rest, and writes the bytes of a fresh build', async () => {
    const work = workDir();
    const data = path.join(work, 'data');
    cpSync(SMALL, data, { recursive: true });
    const env = { SITE_CACHE_DIR: path.join(work, 'cache') };
    const article = path.join(data, 'articles/what-is-curcumin.json');
    let edits = 0;
    const rebuild = async (): Promise<void> => {
      const json = JSON.parse(readFileSync(article, 'utf8'));
      json.body.unshift({ type: 'paragraph', text: `Edit ${++edits}` });
      writeFileSync(article, JSON.stringify(json, null, 2));
      const run = await build(work, ['--json'], env, data);
      expect(run.code, run.stderr).toBe(0);
    };
    await rebuild();
    await rebuild();
    // The output of the first build is the spare now, and the next build's output.
    const spare = path.join(work, '.dist-spare', ARTWORK);
    const names = readdirSync(spare).sort();
    expect(names.length).toBeGreaterThanOrEqual(3);
    const [kept, touched, changed] = names;
    // A file kept keeps its inode and its change time; a new one may get the freed inode number, not the time.
    const identity = (file: string) => {
      const stat = lstatSync(file, { bigint: true });
      return `${stat.ino}:${stat.ctimeNs}`;
    };
    const keptBefore = identity(path.join(spare, kept));
    // The same bytes, another change time: its stamp no longer holds.
    chmodSync(path.join(spare, touched), 0o600);
    // Other bytes, the same length.
    const bytes = readFileSync(path.join(spare, changed));
    bytes[bytes.length - 2] = bytes[bytes.length - 2] === 0x67 ? 0x68 : 0x67;
    writeFileSync(path.join(spare, changed), bytes);

    await rebuild();
    const dist = path.join(work, 'dist', ARTWORK);
    expect(identity(path.join(dist, kept)), 'an artwork file whose stamp holds is kept').toBe(keptBefore);
    // Kept, it would still have the mode it was given; written again, it has a new file's.
    expect(lstatSync(path.join(dist, touched)).mode & 0o777, 'an artwork file whose stat moved is written again').not.toBe(0o600);

    const fresh = workDir();
    const clean = await build(fresh, ['--no-cache', '--json'], env, data);
    expect(clean.code, clean.stderr).toBe(0);
    const freshDir = path.join(fresh, 'dist', ARTWORK);
    expect(readdirSync(dist).sort()).toEqual(readdirSync(freshDir).sort());
    for (const name of readdirSync(freshDir)) expect(readFileSync(path.join(dist, name)).equals(readFileSync(path.join(freshDir, name))), name).toBe(true);
  });
});
