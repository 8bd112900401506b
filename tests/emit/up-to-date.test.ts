/**
 * A build with nothing to do does nothing: the same data, code and options
 * into an output that is exactly as the last build left it writes no file and
 * answers as that build did (build/incremental/up-to-date.ts). Anything done
 * to the output by hand (a page edited or deleted, a file dropped in), to its
 * reports, or another option, makes the build run, and its output is then
 * the bytes of the first build's.
 */
import { appendFileSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, fileDigests as digests, requireCompiled, workDir } from './helpers.js';

interface Answer {
  ok: boolean;
  rendered: number;
  reused: number;
  pages: number;
  files: number;
  warnings: number;
  links: { references: number };
  timings: Record<string, number>;
  diagnostics: unknown[];
}

describe('a build with nothing changed', () => {
  beforeAll(() => requireCompiled());

  it('writes nothing and answers as the last build did, until the output, its reports or an option differ', async () => {
    const work = workDir();
    const env = { SITE_CACHE_DIR: path.join(work, 'cache') };
    const dist = path.join(work, 'dist');
    const run = async (extra: string[] = []): Promise<Answer> => {
      const r = await build(work, ['--json', ...extra], env);
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Answer;
    };
    const first = await run();
    expect(first.timings.verify).toBeUndefined();
    const routes = first.rendered;
    const want = digests(dist);
    const reports = readFileSync(path.join(work, 'reports/build-routes.json'), 'utf8');

    // Nothing changed: the output's files are not touched (their change times stay), and the answer is the first's.
    const page = path.join(dist, [...want.keys()].find((f) => f.endsWith('/index.html'))!);
    const before = readFileSync(page);
    const same = await run();
    expect(same.timings.verify).toBeGreaterThanOrEqual(0);
    expect(same.timings.render).toBeUndefined();
    expect({ rendered: same.rendered, reused: same.reused }).toEqual({ rendered: 0, reused: routes });
    expect({ ...same, timings: {}, rendered: 0, reused: 0 }).toMatchObject({
      ok: true,
      pages: first.pages,
      files: first.files,
      warnings: first.warnings,
      links: first.links,
      diagnostics: first.diagnostics,
    });
    expect(readFileSync(page)).toEqual(before);

    const runsAgain = async (what: string, change: () => void, extra: string[] = []) => {
      change();
      const again = await run(extra);
      expect(again.timings.verify, `${what}: the build runs`).toBeUndefined();
      return again;
    };
    // A page edited by hand is put back.
    await runsAgain('a page edited', () => appendFileSync(page, '<!-- edited -->'));
    expect(digests(dist)).toEqual(want);
    // A page deleted is written again.
    await runsAgain('a page deleted', () => unlinkSync(page));
    expect(digests(dist)).toEqual(want);
    // A file dropped into the output goes.
    await runsAgain('a file added', () => writeFileSync(path.join(path.dirname(page), 'stray.txt'), 'x'));
    expect(digests(dist)).toEqual(want);
    // A report edited is written again.
    await runsAgain('a report edited', () => writeFileSync(path.join(work, 'reports/build-routes.json'), '{}'));
    expect(readFileSync(path.join(work, 'reports/build-routes.json'), 'utf8')).toBe(reports);
    // Each time the build ran it left a manifest of its own output: nothing to do again.
    expect((await run()).timings.verify).toBeGreaterThanOrEqual(0);
    // Another option: an output without the search index is another output.
    const bare = await runsAgain('--no-search-index', () => undefined, ['--no-search-index']);
    expect(bare.files).toBeLessThan(first.files);
    await runsAgain('the search index back', () => undefined);
    expect(digests(dist)).toEqual(want);
    // A build without the cache replaces the output: the next one cannot vouch for it from the manifest.
    await runsAgain('after --no-cache', () => undefined, ['--no-cache']);
    await runsAgain('the first build after --no-cache', () => undefined);
    expect((await run()).timings.verify).toBeGreaterThanOrEqual(0);
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  /** A one-page output with its manifest (data key `data-1`), and the compiled module that made it: its threads run only from compiled code. */
  async function manifested() {
    const compiled = path.resolve('build/src/emit/incremental/up-to-date.js');
    const verify = (await import(pathToFileURL(compiled).href)) as typeof import('../../src/emit/incremental/up-to-date.js');
    const work = workDir();
    const cache = path.join(work, 'cache');
    const out = path.join(work, 'dist');
    mkdirSync(path.join(out, 'a'), { recursive: true });
    const page = path.join(out, 'a/index.html');
    writeFileSync(page, '<!doctype html><title>a</title>');
    const code = { renderModule: 'test:render', assets: {}, htmlTwins: true };
    const answer = { ok: true, diagnostics: [], pages: 1 } as unknown as Parameters<typeof verify.writeManifest>[3];
    verify.writeManifest(cache, out, { code, check: 'data-1', options: 'options' }, answer, new Set(['a/index.html']), new Map(), []);
    return { verify, work, cache, out, page, code };
  }

  it("stops comparing the output once the check's data key is not the manifest's", async () => {
    const { verify, work, cache, out, code } = await manifested();
    const same = verify.verifyInThread(cache, out, code);
    same.dataKey('data-1');
    expect(await same.answer('data-1')).toMatchObject({ check: 'data-1', options: 'options' });
    // Every stat still matches, so only the key can have stopped this one.
    const other = verify.verifyInThread(cache, out, code);
    other.dataKey('data-2');
    expect(await other.answer('data-2')).toBeNull();
    rmSync(work, { recursive: true, force: true });
  });

  it('compares a small output when asked, a large one in a thread from the start, with the same answers', async () => {
    const { verify, work, cache, out, page, code } = await manifested();
    // The manifest is a few hundred bytes: under the default the stats are compared on asking, from 0 bytes in a thread.
    for (const besideBytes of [undefined, 0]) {
      const ask = (key: string) => {
        const verifying = verify.startVerifying(cache, out, code, besideBytes);
        verifying.dataKey(key);
        return verifying.answer(key);
      };
      expect(await ask('data-1'), `besideBytes ${besideBytes}`).toMatchObject({ check: 'data-1', options: 'options' });
      expect(await ask('data-2'), `besideBytes ${besideBytes}`).toBeNull();
    }
    // Asked after the page changed, the comparison on asking sees it.
    const verifying = verify.startVerifying(cache, out, code);
    appendFileSync(page, '<!-- edited -->');
    expect(await verifying.answer('data-1')).toBeNull();
    rmSync(work, { recursive: true, force: true });
  });
});
