/**
 * The spare's inventory from its manifest (src/emit/output/atomic.ts,
 * takeInventory with a record): a rebuild lists only the spare's folders
 * whose stat moved since the spare was last the output, and trusts the
 * manifest for the others. Whatever was done to the spare meanwhile (a page
 * deleted, a file dropped in, a folder added, a page made a link) still
 * shows, and the rebuild writes the bytes of a fresh build.
 */
import { cpSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { keepStockTask, keptStockTask, readStockTask, stockTaskDigest } from '../../src/emit/incremental/stock-task.js';
import { manifestFileOf, recordedFolder } from '../../src/emit/incremental/up-to-date.js';
import { pagesToStat, seenPage } from '../../src/emit/output/page-stats.js';
import { takeStock } from '../../src/emit/output/stock.js';
import { build, listFiles, requireCompiled, ROOT, SMALL, snapshot, workDir } from './helpers.js';

/** A work folder with a copy of the small fixture catalogue, its output folder and one article's data file. */
function smallWorkspace(): { work: string; data: string; dist: string; article: string } {
  const work = workDir();
  const data = path.join(work, 'data');
  cpSync(SMALL, data, { recursive: true });
  return { work, data, dist: path.join(work, 'dist'), article: path.join(data, 'articles/what-is-curcumin.json') };
}

/**
 * buildSite through its compiled module (tests/emit/build-json.mjs), with `work`'s cache and reports: options the
 * CLI never sets (the stock of the spare taken in a thread whatever the catalogue's size) can be given.
 */
function buildInProcess(work: string, data: string, options: Record<string, unknown>) {
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'tests/emit/build-json.mjs'), JSON.stringify({ dataDir: data, reportsDir: path.join(work, 'reports'), ...options })],
    {
      env: { ...process.env, SITE_CACHE_DIR: path.join(work, 'cache') },
      encoding: 'utf8',
    },
  );
  return { status: run.status, stderr: run.stderr, result: JSON.parse(run.stdout) as { ok: boolean; rendered: number; reused: number } };
}

/** Folders are vouched for only when they had not changed for two seconds when their manifest was made (SETTLE_MS). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 2100));

describe("the spare's inventory from its manifest", () => {
  beforeAll(() => requireCompiled());

  test('a rebuild lists only what changed in the spare, finds every change, and writes what a fresh build writes', async () => {
    const work = workDir();
    const data = path.join(work, 'data');
    cpSync(SMALL, data, { recursive: true });
    const cache = path.join(work, 'cache');
    const env = { SITE_CACHE_DIR: cache };
    const dist = path.join(work, 'dist');
    const spare = path.join(work, '.dist-spare');
    const article = path.join(data, 'articles/what-is-curcumin.json');
    let edits = 0;
    /** An edit of one article's body, then an incremental build. */
    const rebuild = async () => {
      const json = JSON.parse(readFileSync(article, 'utf8'));
      json.body.unshift({ type: 'paragraph', text: `Edit ${++edits}` });
      writeFileSync(article, JSON.stringify(json, null, 2));
      const run = await build(work, ['--json'], env, data);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { rendered: number };
    };
    // Two outputs that take turns (the output and the spare), each left by a build long enough after it wrote
    // its folders that its manifest vouches for them.
    await rebuild();
    await rebuild();
    await settle();
    await rebuild();
    await settle();
    expect((await rebuild()).rendered).toBeLessThan(10);
    const recorded = recordedFolder(manifestFileOf(cache, spare)!);
    expect(recorded, "the spare's manifest").not.toBeNull();
    const vouched = recorded!.stats.filter((s) => s !== '').length;
    expect(vouched, 'folders the manifest vouches for').toBeGreaterThan(recorded!.dirs.length / 2);

    // Done to the spare by hand, or by a build killed while writing into it.
    rmSync(path.join(spare, 'about-us/index.html'));
    writeFileSync(path.join(spare, 'contact-us/dropped.html'), 'a file no build wrote');
    mkdirSync(path.join(spare, 'herb-extract/added/deeper'), { recursive: true });
    writeFileSync(path.join(spare, 'herb-extract/added/deeper/index.html'), 'a page of no route');
    rmSync(path.join(spare, 'knowledge'), { recursive: true, force: true });
    writeFileSync(path.join(spare, 'knowledge'), 'a file where a folder was');
    const outside = path.join(work, 'outside.txt');
    writeFileSync(outside, 'must stay');
    rmSync(path.join(spare, 'robots.txt'));
    symlinkSync(outside, path.join(spare, 'robots.txt'));

    await rebuild();
    const fresh = workDir();
    const clean = await build(fresh, ['--no-cache'], undefined, data);
    expect(clean.code, clean.stderr).toBe(0);
    expect(snapshot(dist)).toEqual(snapshot(path.join(fresh, 'dist')));
    expect(readFileSync(outside, 'utf8')).toBe('must stay');
    rmSync(work, { recursive: true, force: true });
    rmSync(fresh, { recursive: true, force: true });
  }, 60_000);
  test("taken in a thread of its own, the stock is the one the prepare task takes, and a failure is the caller's error", async () => {
    // The thread runs only from compiled code (from the TypeScript sources it takes stock in-process).
    const compiled = path.resolve('build/src/emit/threads/stock-thread.js');
    const { takeStockInThread } = (await import(pathToFileURL(compiled).href)) as typeof import('../../src/emit/threads/stock-thread.js');
    const work = workDir();
    const make = (root: string) => {
      for (const dir of ['a', 'b/c', 'stale']) mkdirSync(path.join(root, dir), { recursive: true });
      for (const file of ['a/index.html', 'a.html', 'b/c/index.html', 'stale/index.html', 'robots.txt']) writeFileSync(path.join(root, file), file);
      return root;
    };
    const planned = [
      { file: 'a/index.html', twin: true },
      { file: 'b/c/index.html', twin: true },
      { file: 'new/page/index.html', twin: true },
      { file: 'robots.txt' },
    ];
    const task = { recycled: true, dirs: ['a', 'b/c', 'new/page'], part: 0, parts: 1, twins: true, pages: pagesToStat(planned) };
    const threaded = make(path.join(work, 'threaded'));
    const inThread = await takeStockInThread(threaded, task);
    const here = takeStock(make(path.join(work, 'here')), task);
    expect({ files: inThread.files.sort(), dirs: inThread.dirs.sort() }).toEqual({ files: here.files.sort(), dirs: here.dirs.sort() });
    // The twin of a page this build writes is not listed; the page folder it lacked is made.
    expect(inThread.files).toEqual(['a/index.html', 'b/c/index.html', 'robots.txt', 'stale/index.html']);
    expect(statSync(path.join(work, 'threaded/new/page')).isDirectory()).toBe(true);
    // The pages' stats, each the lstat of its file and twin, in the plan's order: none where nothing is.
    const stat = (file: string) => {
      const { dev, ino, size, mtimeNs, ctimeNs } = lstatSync(path.join(threaded, file), { bigint: true });
      return { dev, ino, size, mtimeNs, ctimeNs };
    };
    const idOf = (file: string) => ({ dev: stat(file).dev, ino: stat(file).ino });
    expect(planned.map((_, i) => seenPage(inThread.pageStats!, i))).toEqual([
      { file: stat('a/index.html'), twin: idOf('a.html') },
      { file: stat('b/c/index.html') },
      {},
      { file: stat('robots.txt') },
    ]);
    expect(seenPage(inThread.pageStats!, planned.length)).toBeUndefined();
    // Taken in shares (render threads making their folders meanwhile), the stock has no page stats.
    expect(takeStock(make(path.join(work, 'shared')), { ...task, parts: 2 }).pageStats).toBeUndefined();

    writeFileSync(path.join(work, 'a file'), 'not a folder');
    await expect(takeStockInThread(path.join(work, 'a file'), task)).rejects.toThrow(/ENOTDIR/);

    // The same task kept in the cache (incremental/stock-task.ts), read by the thread: the same stock, stats and all.
    const { takeKeptStockInThread } = (await import(pathToFileURL(compiled).href)) as typeof import('../../src/emit/threads/stock-thread.js');
    const cache = path.join(work, 'cache');
    const outDir = path.join(work, 'dist');
    const plan = { dirs: task.dirs, twins: task.twins, pages: task.pages };
    expect(keptStockTask(cache, outDir)).toBeUndefined();
    keepStockTask(cache, outDir, { plan, digest: stockTaskDigest(plan) });
    const kept = keptStockTask(cache, outDir)!;
    expect(kept.digest).toBe(stockTaskDigest(plan));
    expect(readStockTask(kept.file)).toEqual(plan);
    const fromKept = await takeKeptStockInThread(make(path.join(work, 'kept')), kept.file);
    expect({ files: fromKept.files.sort(), dirs: fromKept.dirs.sort() }).toEqual({ files: inThread.files.sort(), dirs: inThread.dirs.sort() });
    expect(planned.map((_, i) => Object.keys(seenPage(fromKept.pageStats!, i)!))).toEqual([['file', 'twin'], ['file'], [], ['file']]);
    // Another plan is another digest, kept in its place; none kept, none left.
    const other = { ...plan, dirs: ['a'] };
    expect(stockTaskDigest(other)).not.toBe(kept.digest);
    keepStockTask(cache, outDir, { plan: other, digest: stockTaskDigest(other) });
    expect(keptStockTask(cache, outDir)?.digest).toBe(stockTaskDigest(other));
    keepStockTask(cache, outDir);
    expect(keptStockTask(cache, outDir)).toBeUndefined();
    await expect(takeKeptStockInThread(path.join(work, 'kept'), kept.file)).rejects.toThrow(/could not be read/);
    rmSync(work, { recursive: true, force: true });
  });
  test('a build taking stock in the thread keeps, links or writes each page of a spare changed by hand as one without it does', () => {
    const { work, data, dist, article } = smallWorkspace();
    const spare = path.join(work, '.dist-spare');
    const buildJson = (options: Record<string, unknown>) => {
      const run = buildInProcess(work, data, options);
      expect(run.status, run.stderr).toBe(0);
      return run.result as { rendered: number; reused: number };
    };
    let edits = 0;
    const rebuild = () => {
      const json = JSON.parse(readFileSync(article, 'utf8'));
      json.body.unshift({ type: 'paragraph', text: `Edit ${++edits}` });
      writeFileSync(article, JSON.stringify(json, null, 2));
      return buildJson({ outDir: dist, stockBeside: 0 });
    };
    rebuild();
    rebuild();
    expect(rebuild().rendered).toBeLessThan(5);
    const pages = listFiles(spare).filter((f) => f.endsWith('/index.html') && existsSync(path.join(spare, `${f.slice(0, -'/index.html'.length)}.html`)));
    expect(pages.length).toBeGreaterThan(5);
    const [stale, staleTwin, noTwin, gone, inPlace] = pages;
    const twinOf = (page: string) => path.join(spare, `${page.slice(0, -'/index.html'.length)}.html`);
    // Other bytes under a page's name, a twin made a file of its own, a twin and a page gone.
    rmSync(path.join(spare, stale));
    writeFileSync(path.join(spare, stale), 'an outdated page');
    rmSync(twinOf(staleTwin));
    writeFileSync(twinOf(staleTwin), 'a stale twin');
    rmSync(twinOf(noTwin));
    rmSync(path.join(spare, gone));
    // Edited in place, its size and modification time kept: only the change time in its stat tells.
    const edited = path.join(spare, inPlace);
    const { size, atime, mtime } = statSync(edited);
    writeFileSync(edited, 'x'.repeat(size));
    utimesSync(edited, atime, mtime);

    rebuild();
    const fresh = path.join(work, 'fresh');
    buildJson({ outDir: fresh, cache: false });
    expect(snapshot(dist)).toEqual(snapshot(fresh));
    for (const page of pages) expect(statSync(twinOf(page).replace(spare, dist)).ino, page).toBe(statSync(path.join(dist, page)).ino);
    rmSync(work, { recursive: true, force: true });
  });

  test("taken with the last build's task as soon as the data changed: used for the same plan, taken again for another, and put back when the check fails", () => {
    const { work, data, dist, article } = smallWorkspace();
    const cache = path.join(work, 'cache');
    const buildJson = (options: Record<string, unknown>) => buildInProcess(work, data, options);
    /** Builds as a large catalogue builds (stock beside the selection), and compares with a fresh build of the same data. */
    const rebuild = () => {
      const run = buildJson({ outDir: dist, stockBeside: 0 });
      expect(run.status, run.stderr).toBe(0);
      const fresh = path.join(work, 'fresh');
      rmSync(fresh, { recursive: true, force: true });
      expect(buildJson({ outDir: fresh, cache: false }).status).toBe(0);
      expect(snapshot(dist)).toEqual(snapshot(fresh));
      return run.result;
    };
    const kept = () => readdirSync(path.join(cache, 'stock-tasks'));
    const editArticle = (text: string) => {
      const json = JSON.parse(readFileSync(article, 'utf8'));
      json.body.unshift({ type: 'paragraph', text });
      writeFileSync(article, JSON.stringify(json, null, 2));
    };
    rebuild();
    expect(kept()).toHaveLength(1);
    editArticle('First edit');
    expect(rebuild().rendered).toBeLessThan(5);
    const task = kept();
    expect(task).toHaveLength(1);
    // The same plan: the same task, kept as it was.
    editArticle('Second edit');
    expect(rebuild().rendered).toBeLessThan(5);
    expect(kept()).toEqual(task);

    // A route moved: the stock taken for the last plan is not this build's; it is taken again, and the new task kept.
    const routesFile = path.join(data, 'routes.json');
    const routes = JSON.parse(readFileSync(routesFile, 'utf8')) as Array<{ path: string }>;
    const moved = routes.find((r) => r.path === '/knowledge/ginger-dosage-guide');
    expect(moved).toBeDefined();
    moved!.path = '/knowledge/ginger-dosage-guide-moved';
    writeFileSync(routesFile, JSON.stringify(routes, null, 2));
    rebuild();
    expect(kept()).toHaveLength(1);
    expect(kept()).not.toEqual(task);
    expect(existsSync(path.join(dist, 'knowledge/ginger-dosage-guide'))).toBe(false);

    // The check fails after the stock was started: the output stays, and the spare is put back for the next build.
    const before = snapshot(dist);
    const good = readFileSync(article);
    writeFileSync(article, '{ "id": ');
    const failed = buildJson({ outDir: dist, stockBeside: 0 });
    expect(failed.status).toBe(1);
    expect(failed.result.ok).toBe(false);
    expect(snapshot(dist)).toEqual(before);
    expect(readdirSync(work).filter((n) => n.endsWith('-tmp'))).toEqual([]);
    expect(existsSync(path.join(work, '.dist-spare'))).toBe(true);
    writeFileSync(article, good);
    editArticle('Third edit');
    expect(rebuild().rendered).toBeLessThan(5);
    rmSync(work, { recursive: true, force: true });
  });
});
