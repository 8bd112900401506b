/**
 * `site build --watch` as a user runs it: `bin/site` as a process, the data
 * folder edited beside it. Each build it reports must leave `dist/` equal, byte
 * for byte, to a clean `--no-cache` build of the data as it then is; a change
 * saved while a build runs must not be lost; a broken file must leave `dist/`
 * as it was; Ctrl-C must end the process with the last build's exit code and a
 * whole `dist/`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fileDigests, requireCompiled, ROOT, site, SMALL, workDir } from './helpers.js';

interface WatchLine {
  ok: boolean;
  failedAt?: string;
  rendered: number;
  reused: number;
  unchanged: { pages: number; byStamp: number };
  pages: number;
  changed?: string[];
  diagnostics: Array<{ code: string; file?: string }>;
}

/** `site build --watch --json` over `data`, its JSON lines read one at a time. */
function startWatch(work: string, data: string, out = 'dist', reports = 'reports') {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/site'), 'build', '--watch', '--json', '--data-dir', data, '--out', out, '--reports', reports],
    { cwd: work, env: { ...process.env, NO_COLOR: '1', SITE_CACHE_DIR: path.join(work, 'cache') } },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const lines: string[] = [];
  let wake: (() => void) | null = null;
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    wake?.();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    stderr: () => stderr,
    /** The next build's JSON line; fails the test after `ms` without one. */
    async next(ms = 30_000): Promise<WatchLine> {
      const deadline = Date.now() + ms;
      while (lines.length === 0) {
        if (child.exitCode !== null) throw new Error(`site build --watch exited (${child.exitCode}): ${stderr}`);
        if (Date.now() > deadline) throw new Error(`no build reported within ${ms} ms: ${stderr}`);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 100);
        });
        wake = null;
      }
      return JSON.parse(lines.shift()!) as WatchLine;
    },
    /** The next build's JSON line, or null when none comes within `ms`. */
    async nextWithin(ms: number): Promise<WatchLine | null> {
      return this.next(ms).catch((err: Error) => {
        if (err.message.startsWith('no build reported')) return null;
        throw err;
      });
    },
  };
}

const running: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A paragraph put at the top of the small fixture's article what-is-curcumin, saved as an editor saves it; returns its file. */
function editArticle(data: string, text: string): string {
  const article = path.join(data, 'articles', 'what-is-curcumin.json');
  const entity = JSON.parse(readFileSync(article, 'utf8')) as { body: unknown[] };
  entity.body.unshift({ type: 'paragraph', text });
  writeFileSync(article, `${JSON.stringify(entity, null, 2)}\n`);
  return article;
}

/** A work folder with a copy of the small fixture as its data folder. */
function copyOfSmall(): { work: string; data: string } {
  const work = workDir();
  const data = path.join(work, 'data');
  cpSync(SMALL, data, { recursive: true });
  return { work, data };
}

/** A watch over a copy of the small fixture, its first build done, then its data folder deleted: up to the build that finds it gone. */
async function watchThenDelete() {
  const { work, data } = copyOfSmall();
  const watch = startWatch(work, data);
  running.push(watch.child);
  expect((await watch.next()).ok, watch.stderr()).toBe(true);
  rmSync(data, { recursive: true });
  // Builds may start while the folder is half deleted (and fail on what is left): one comes that finds it gone.
  const codes = (line: WatchLine) => line.diagnostics.map((d) => d.code);
  let gone = await watch.next();
  while (!codes(gone).includes('load/missing-data-dir')) gone = await watch.next();
  return { work, data, watch, gone };
}

describe('site build --watch', () => {
  beforeAll(() => requireCompiled());

  it('builds again on each save, each time to the bytes of a clean build, and stops on Ctrl-C with the last exit code', async () => {
    const { work, data } = copyOfSmall();
    const cleanDigests = async (name: string) => {
      const out = path.join(work, name);
      const run = await site(['build', '--data-dir', data, '--out', out, '--reports', `${out}-reports`, '--no-cache', '--json']);
      expect(run.code, run.stderr).toBe(0);
      return fileDigests(out);
    };
    const dist = path.join(work, 'dist');
    const article = path.join(data, 'articles', 'what-is-curcumin.json');

    const watch = startWatch(work, data);
    running.push(watch.child);
    const first = await watch.next();
    expect(first.ok, watch.stderr()).toBe(true);
    expect(first.changed).toEqual([]);
    expect(first.rendered).toBeGreaterThan(10);

    // One save: one build, of the pages the edit touches, to the bytes of a clean build.
    editArticle(data, 'Stored cool and dry.');
    const edited = await watch.next();
    expect(edited.ok, watch.stderr()).toBe(true);
    expect(edited.changed).toEqual([path.relative(work, article)]);
    expect(edited.rendered).toBeGreaterThanOrEqual(1);
    expect(edited.rendered).toBeLessThan(first.rendered);
    expect(fileDigests(dist)).toEqual(await cleanDigests('clean-1'));

    // A broken file fails the build and leaves dist/ as it was; the fix builds again.
    const before = fileDigests(dist);
    const saved = readFileSync(article, 'utf8');
    writeFileSync(article, '{ "id": ');
    const broken = await watch.next();
    expect(broken.ok).toBe(false);
    expect(broken.failedAt).toBe('check');
    expect(broken.diagnostics.some((d) => d.file?.endsWith('what-is-curcumin.json'))).toBe(true);
    expect(fileDigests(dist)).toEqual(before);
    writeFileSync(article, saved);
    const fixed = await watch.next();
    expect(fixed.ok, watch.stderr()).toBe(true);
    expect(fileDigests(dist)).toEqual(before);

    // Saves during a build start one more build after it: the last save always reaches dist/.
    for (let i = 0; i < 4; i++) {
      editArticle(data, `Save ${i}.`);
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    let last = await watch.next();
    // Every save reported: no build follows the last one within a second and a half.
    for (let more = await watch.nextWithin(1500); more !== null; more = await watch.nextWithin(1500)) last = more;
    expect(last.ok, watch.stderr()).toBe(true);
    expect(fileDigests(dist)).toEqual(await cleanDigests('clean-2'));

    // Ctrl-C: the process ends with the last build's code, dist/ whole.
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
    expect(fileDigests(dist)).toEqual(await cleanDigests('clean-3'));
  }, 180_000);

  it('reports a data folder deleted, and watches the folder moved back into its place', async () => {
    const { work, data, watch, gone } = await watchThenDelete();
    expect(gone.ok).toBe(false);
    expect(gone.failedAt).toBe('check');
    // Put back whole, as `mv` puts a folder in place. (Copied in file by file, a folder can be watched before its
    // subfolders exist, and Node's recursive watch on Linux may miss subfolders made while it starts.)
    cpSync(SMALL, `${data}-new`, { recursive: true });
    renameSync(`${data}-new`, data);
    let back = await watch.next();
    while (!back.ok) back = await watch.next();
    // The folder is watched afresh once the build it started has ended (watchBuilds' settleWatch), and that watch
    // walks the tree as it starts: a save during the walk may go unseen, though the build that follows reads it.
    while ((await watch.nextWithin(1500)) !== null);
    // Saves in the new folder are seen.
    const article = editArticle(data, 'Stored cool and dry.');
    // The build it starts may find the page rendered already, by a build the copy's last events started.
    let edited = await watch.next();
    while (!edited.changed?.includes(path.relative(work, article))) edited = await watch.next();
    for (let more = await watch.nextWithin(1500); more !== null; more = await watch.nextWithin(1500)) edited = more;
    expect(edited.ok, watch.stderr()).toBe(true);
    expect(readFileSync(path.join(work, 'dist', 'knowledge', 'what-is-curcumin', 'index.html'), 'utf8')).toContain('Stored cool and dry.');
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  }, 60_000);

  it('sees saves in every subfolder of a data folder made again file by file', async () => {
    const { work, data, watch } = await watchThenDelete();
    // Made again as `cp -r` makes it: the folder first, then its subfolders and files one by one, so that the
    // watch may attach while the subfolders are being made.
    cpSync(SMALL, data, { recursive: true });
    let back = await watch.next();
    while (!back.ok) back = await watch.next();
    while ((await watch.nextWithin(1500)) !== null);
    for (const [i, [folder, file]] of [
      ['articles', 'what-is-curcumin.json'],
      ['products', readdirSync(path.join(data, 'products'))[0]],
    ].entries()) {
      const saved = path.join(data, folder, file);
      writeFileSync(saved, readFileSync(saved, 'utf8').replace(/\n?$/, `\n${' '.repeat(i + 1)}\n`));
      let line = await watch.next(10_000);
      while (!line.changed?.includes(path.relative(work, saved))) line = await watch.next(10_000);
      expect(line.ok, watch.stderr()).toBe(true);
    }
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  }, 60_000);

  it('prints a build in full before it writes the build cache, however long the line', async () => {
    const { work, data } = copyOfSmall();
    const cache = path.join(work, 'cache');
    const dist = path.join(work, 'dist');
    const watch = startWatch(work, data);
    running.push(watch.child);
    expect((await watch.next()).ok, watch.stderr()).toBe(true);
    expect(await watch.nextWithin(1500)).toBeNull();
    // What the watch writes once the build is reported (BuildOptions.later): the check's entry, the search
    // index's entry, the record and the manifest, each renamed into place from a temporary file, which is left
    // out here. (Other cache files, such as image copies and search shards, are touched when used.)
    const handedOver = () =>
      readdirSync(cache, { recursive: true })
        .map(String)
        .filter((f) => /^(check-[^/]*\.bin|search-[^/]*\.json|(records|manifests)\/[^/]*\.bin)$/.test(f));
    // A file listed may have been replaced by the time it is looked at: its successor is newer still.
    const mtimeOf = (f: string) => statSync(path.join(cache, f), { throwIfNoEntry: false })?.mtimeMs ?? Number.POSITIVE_INFINITY;
    const newest = () => Math.max(...handedOver().map(mtimeOf));
    const before = { cache: newest(), dist: statSync(dist).ino };
    // Nobody reads the line for now: the pipe and the reading side's buffers hold a few hundred KB of it, and
    // this build's line is about 1 MB (it names every file the save changed).
    watch.child.stdout.pause();
    // Made aside and moved in: one save, one build.
    const stray = path.join(work, 'stray');
    mkdirSync(stray);
    for (let i = 0; i < 4000; i++) writeFileSync(path.join(stray, `${String(i).padStart(4, '0')}-${'x'.repeat(240)}.txt`), '');
    renameSync(stray, path.join(data, 'stray'));
    const deadline = Date.now() + 30_000;
    // Gone for a moment between the swap's two renames: that too means a build is swapping in.
    while (statSync(dist, { throwIfNoEntry: false })?.ino === before.dist) {
      if (Date.now() > deadline) throw new Error(`no build swapped into dist/ within 30 s: ${watch.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Swapped in, and not reported yet: nothing of the build cache written.
    const newer = handedOver().filter((f) => mtimeOf(f) > before.cache);
    expect(newer).toEqual([]);
    watch.child.stdout.resume();
    let line = await watch.next();
    while ((line.changed?.length ?? 0) < 4000) line = await watch.next();
    expect(line.ok, watch.stderr()).toBe(true);
    expect(line.diagnostics.filter((d) => d.code === 'load/unexpected-file').length).toBeGreaterThan(0);
    const written = Date.now() + 10_000;
    while (newest() === before.cache && Date.now() < written) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(newest()).toBeGreaterThan(before.cache);
    watch.child.kill('SIGINT');
    expect(await watch.exited).toBe(0);
  }, 90_000);

  describe('copies into the spare, before the next save, the pages it lacks, which that save then keeps there by their stamps', () => {
    /** The small fixture built once, then its brand changed: on every page, so the next build renders them all. */
    const builtThenRebranded = async () => {
      const { work, data } = copyOfSmall();
      const oneShot = () =>
        site(['build', '--json', '--data-dir', data, '--out', 'dist', '--reports', 'reports'], {
          cwd: work,
          env: { SITE_CACHE_DIR: path.join(work, 'cache') },
        });
      const built = await oneShot();
      expect(built.code, built.stderr).toBe(0);
      const siteFile = path.join(data, 'site.json');
      writeFileSync(siteFile, readFileSync(siteFile, 'utf8').replace('"Fixture Botanicals"', '"Fixture Botanicals Co."'));
      return { work, data, oneShot };
    };
    /** After a quiet while (the watch waits a second), an article saved: its build finds every page it takes over in the spare by its stamp (none copied). */
    const saveAfterQuiet = async (work: string, data: string, watch: ReturnType<typeof startWatch>) => {
      expect(await watch.nextWithin(3000)).toBeNull();
      editArticle(data, 'Stored cool and dry.');
      const edited = await watch.next();
      expect(edited.ok, watch.stderr()).toBe(true);
      expect(edited.rendered).toBeGreaterThanOrEqual(1);
      expect(edited.reused).toBeGreaterThan(10);
      // (A page rendered to the bytes it had counts too.)
      expect(edited.unchanged.byStamp).toBeGreaterThanOrEqual(edited.reused);
      const clean = path.join(work, 'clean');
      const run = await site(['build', '--data-dir', data, '--out', clean, '--reports', `${clean}-reports`, '--no-cache', '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect(fileDigests(path.join(work, 'dist'))).toEqual(fileDigests(clean));
      watch.child.kill('SIGINT');
      expect(await watch.exited).toBe(0);
    };

    /** The watch started, and its first build's line. */
    const watched = async (work: string, data: string) => {
      const watch = startWatch(work, data);
      running.push(watch.child);
      const first = await watch.next();
      expect(first.ok, watch.stderr()).toBe(true);
      return { watch, first };
    };

    it('after a build of the watch that rendered every page', async () => {
      const { work, data } = await builtThenRebranded();
      const { watch, first } = await watched(work, data);
      expect(first.reused).toBe(0);
      await saveAfterQuiet(work, data, watch);
    }, 60_000);

    it('after a build before the watch rendered every page, and the watch found nothing to build', async () => {
      const { work, data, oneShot } = await builtThenRebranded();
      const rebuilt = await oneShot();
      expect(rebuilt.code, rebuilt.stderr).toBe(0);
      const { watch, first } = await watched(work, data);
      expect(first.rendered).toBe(0);
      await saveAfterQuiet(work, data, watch);
    }, 60_000);
  });

  it('stops with a clear error, not in silence, when the data folder cannot be watched whole', async () => {
    const { work, data } = copyOfSmall();
    const child = spawn(
      process.execPath,
      ['--import', new URL('./watch-limit.mjs', import.meta.url).href, path.join(ROOT, 'bin/site'), 'build', '--watch', '--data-dir', data],
      { cwd: work, env: { ...process.env, NO_COLOR: '1', SITE_CACHE_DIR: path.join(work, 'cache') } },
    );
    running.push(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(1);
    expect(stderr).toContain(`site build: cannot watch every file under ${data}: the system's limit of file watches is reached`);
    expect(stderr).toContain('fs.inotify.max_user_watches');
  }, 60_000);

  it('does not build again for its own writes when the output and reports are inside the data folder', async () => {
    const { work, data } = copyOfSmall();
    // The output, its temporary folder and spare beside it, and the reports: all under the watched folder.
    const watch = startWatch(work, data, path.join(data, 'site-out'), path.join(data, 'site-reports'));
    running.push(watch.child);
    expect((await watch.next()).ok, watch.stderr()).toBe(true);
    expect(await watch.nextWithin(2000)).toBeNull();
    const article = editArticle(data, 'Stored cool and dry.');
    const edited = await watch.next();
    expect(edited.ok, watch.stderr()).toBe(true);
    expect(edited.changed).toEqual([path.relative(work, article)]);
    expect(await watch.nextWithin(2000)).toBeNull();
    watch.child.kill('SIGTERM');
    expect(await watch.exited).toBe(0);
  }, 60_000);
});
