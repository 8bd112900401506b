/**
 * `site build` as a whole process (bin/site, the way CI runs it), against a
 * plain single-thread renderToStaticMarkup loop over the same routes, so the
 * pool's gain is visible. Budgets (issue 3 §4), medians on this 2-core machine:
 * the shipped catalogue under 1.0 s wall; a synthetic 100,000-route catalogue
 * (bench/synthetic.ts) under 40 s with peak memory under 1 GB.
 *
 *   npm run bench -- build                       shipped data/, 5 runs
 *   npm run bench -- build --synthetic[=100000]  also the synthetic catalogue, at most 3 runs
 *   npm run bench -- build --photos[=50]         also a copy of data/ with N photographed products (bench/photos.ts)
 *   npm run bench -- build --runs=3 --data-dir=<dir>
 *   npm run bench -- build --bin=<other checkout>/bin/site   each run paired with the other build of the tool, in turn
 *   npm run bench -- build --modes=rebuild,cold               only these ways (rebuild, fresh, cold, loops, edits)
 * (flags take `=`: bench/run.ts reads every bare word as a section name)
 *
 * Two ways, both measured: every build into a new folder under bench/out/ (a
 * clean CI checkout), and rebuilds into one folder (a developer's loop, where
 * the build writes into the output it replaced). Nothing is deleted until the
 * end (file creation is slow for minutes after a large delete).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDataDir } from '../src/check/run.js';
import { defaultClientDir, readAssetRefs } from '../src/emit/files/assets.js';
import { createSiteModel, renderRoute } from '../src/render/index.js';
import { measureScaling } from './scaling.js';
import { makeSynthetic } from './synthetic.js';
import { makePhotoCatalogue, PHOTO_SIZE } from './photos.js';
import { flag, median } from './args.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin/site');
const OUT = path.join(ROOT, 'bench/out');
const TIME = '/usr/bin/time';
/** `--bin=<other checkout>/bin/site`: the other build of the tool each run is paired with (set by run()). */
let OTHER_BIN: string | undefined;

interface BuildSample {
  wallMs: number;
  cpuMs: number | undefined;
  peakRssMb: number;
  pages: number;
  /** Route pages this build rendered (the others were taken over from the last build's output). */
  rendered: number;
  timings: Record<string, number>;
}

const fmt = (n: number, digits = 0) => n.toFixed(digits);
const say = (s: string) => void process.stdout.write(s + '\n');

let serial = 0;
/** A folder name never used before in this run. */
const fresh = (label: string) => path.join(OUT, `bench-${label}-${process.pid}-${++serial}`);

/** One `bin/site build --json` as a child process; wall time around the spawn, peak RSS from the build (all its threads). */
function buildOnce(
  dataDir: string,
  extra: string[],
  into?: { out: string; reports: string },
  cwd = ROOT,
  bin = BIN,
  cacheDir?: string,
): Promise<BuildSample & { out: string; reports: string }> {
  const out = into?.out ?? fresh('dist');
  const reports = into?.reports ?? fresh('reports');
  const args = [bin, 'build', '--data-dir', path.resolve(ROOT, dataDir), '--out', out, '--reports', reports, '--json', ...extra];
  const withTime = existsSync(TIME);
  const [cmd, argv] = withTime ? [TIME, ['-f', 'cpu %U %S', process.execPath, ...args]] : [process.execPath, args];
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
    // Outside ROOT (the cold runs) no cache at all, even one named by the environment.
    if (cwd !== ROOT) delete env.SITE_CACHE_DIR;
    if (cacheDir !== undefined) env.SITE_CACHE_DIR = cacheDir;
    const child = spawn(cmd, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
      if (code !== 0) return reject(new Error(`site build exited ${code}: ${stderr.slice(-2000)}${stdout.slice(0, 500)}`));
      const summary = JSON.parse(stdout) as { pages: number; rendered: number; peakRssBytes: number; timings: Record<string, number> };
      const m = stderr.match(/cpu ([\d.]+) ([\d.]+)\s*$/);
      resolve({
        wallMs,
        cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined,
        peakRssMb: summary.peakRssBytes / 2 ** 20,
        pages: summary.pages,
        rendered: summary.rendered,
        timings: summary.timings,
        out,
        reports,
      });
    });
  });
}

/**
 * `fresh`: every run into a new output folder. `rebuild`: every run into the same one with nothing
 * changed, as a developer rebuilds: the output's manifest vouches for it and the build writes
 * nothing (src/emit/incremental/up-to-date.ts). Both reuse the check and search-index caches
 * (node_modules/.cache/site/). `cold`: a new output folder and no cache at all, as on a fresh
 * clone in CI: the build runs from a folder outside any package, where it caches nothing.
 */
async function measureBuild(label: string, dataDir: string, runs: number, extra: string[] = [], mode: 'fresh' | 'rebuild' | 'cold' = 'fresh'): Promise<void> {
  // With --bin, each run of this checkout is paired with a run of the other, in turn (A B A B …), so both see the same machine.
  const bins = OTHER_BIN === undefined ? [BIN] : [BIN, OTHER_BIN];
  const leftovers: string[] = [];
  const cwd = mode === 'cold' ? mkdtempSync(path.join(tmpdir(), 'site-bench-cold-')) : ROOT;
  if (cwd !== ROOT) leftovers.push(cwd);
  const intos = bins.map(() => (mode === 'rebuild' ? { out: fresh('dist'), reports: fresh('reports') } : undefined));
  for (const into of intos)
    if (into !== undefined) leftovers.push(into.out, into.reports, path.join(path.dirname(into.out), `.${path.basename(into.out)}-spare`));
  // Warms the file cache; for a rebuild, two runs make the output and its spare.
  for (const [b, bin] of bins.entries()) {
    for (let i = 0; i < (intos[b] === undefined ? 1 : 2); i++)
      await buildOnce(dataDir, extra, intos[b], cwd, bin).then((s) => leftovers.push(s.out, s.reports));
  }
  const samples: BuildSample[][] = bins.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [b, bin] of bins.entries()) {
      const s = await buildOnce(dataDir, extra, intos[b], cwd, bin);
      leftovers.push(s.out, s.reports);
      samples[b].push(s);
    }
  }
  const medians = samples.map((list, b) => {
    const wall = median(list.map((s) => s.wallMs));
    const peak = median(list.map((s) => s.peakRssMb));
    const cpus = list.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
    const pages = list[0].pages;
    const phases = Object.keys(list[0].timings).map((k) => `${k} ${fmt(median(list.map((s) => s.timings[k] ?? 0)))}`);
    say(
      `${label}${bins.length > 1 ? (b === 0 ? ' [this checkout]' : ` [${bins[b]}]`) : ''}: ${pages} pages, wall median ${fmt(wall)} ms (${fmt(pages / (wall / 1000))} pages/s), ` +
        `peak RSS median ${fmt(peak)} MB` +
        (cpus.length > 0 ? `, cpu median ${fmt(median(cpus))} ms` : '') +
        `\n    runs: ${list.map((s) => fmt(s.wallMs)).join(', ')} ms; phases (ms, medians): ${phases.join(', ')}`,
    );
    return { wall, peak };
  });
  if (medians.length > 1) {
    const ratios = samples[0].map((s, i) => s.wallMs / samples[1][i].wallMs);
    say(
      `    this checkout against the other: wall ${fmt(medians[0].wall / medians[1].wall, 3)}× (median of pairs ${fmt(median(ratios), 3)}×), peak ${fmt(medians[0].peak / medians[1].peak, 3)}×`,
    );
  }
  await removeLater(leftovers);
}

/** One edit of a copy of the catalogue: a different change on every run, so each build has something to do. */
type Edit = (dataDir: string, run: number) => void;

/** The `n`th file of a folder of the catalogue, read, changed by `change` and written back. */
function editNth(folder: string, n: number, change: (entity: Record<string, unknown>, run: number) => void): Edit {
  return (dataDir, run) => {
    const dir = path.join(dataDir, folder);
    const names = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort();
    const file = path.join(dir, names[Math.min(n, names.length - 1)]);
    const entity = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    change(entity, run);
    writeFileSync(file, JSON.stringify(entity, null, 2) + '\n');
  };
}

const EDITS: Array<[string, Edit | null]> = [
  ['nothing changed', null],
  [
    "one article's body edited",
    editNth('articles', 500, (a, run) => {
      (a.body as unknown[]).unshift({ type: 'paragraph', text: `Edited for the bench, run ${run}.` });
    }),
  ],
  [
    "one product's name edited",
    editNth('products', 100, (p, run) => {
      p.name = `${String(p.name).replace(/ \(bench \d+\)$/, '')} (bench ${run})`;
    }),
  ],
];

/**
 * Incremental rebuilds (the build record, src/emit/incremental/): a copy of
 * the catalogue is built twice (the record, then the spare), then for each
 * edit and run: the edit, an incremental build into the same output, and
 * beside it a clean `--no-cache` build of the same data into a new folder.
 */
async function measureEdits(label: string, dataDir: string, runs: number): Promise<void> {
  const work = fresh('edits');
  const data = path.join(work, 'data');
  cpSync(path.resolve(ROOT, dataDir), data, { recursive: true });
  const cache = path.join(work, 'cache');
  const into = { out: path.join(work, 'dist'), reports: path.join(work, 'reports') };
  const leftovers = [work];
  for (let i = 0; i < 2; i++) await buildOnce(data, [], into, ROOT, BIN, cache);
  const cleanWalls = new Map<string, number>();
  for (const [what, edit] of EDITS) {
    const incremental: BuildSample[] = [];
    const clean: BuildSample[] = [];
    for (let run = 0; run < runs; run++) {
      edit?.(data, run);
      incremental.push(await buildOnce(data, [], into, ROOT, BIN, cache));
      const s = await buildOnce(data, ['--no-cache'], undefined, ROOT, BIN, cache);
      leftovers.push(s.out, s.reports);
      clean.push(s);
    }
    const wall = median(incremental.map((s) => s.wallMs));
    const cleanWall = median(clean.map((s) => s.wallMs));
    cleanWalls.set(what, cleanWall);
    const phases = Object.keys(incremental[0].timings).map((k) => `${k} ${fmt(median(incremental.map((s) => s.timings[k] ?? 0)))}`);
    say(
      `site build ${label}, ${what}: incremental wall median ${fmt(wall)} ms, rendered ${incremental.map((s) => s.rendered).join('/')} of ${incremental[0].pages - 2} routes, ` +
        `peak RSS median ${fmt(median(incremental.map((s) => s.peakRssMb)))} MB; beside it --no-cache ${fmt(cleanWall)} ms: ${fmt(wall / cleanWall, 3)}× ` +
        `(median of pairs ${fmt(median(incremental.map((s, i) => s.wallMs / clean[i].wallMs)), 3)}×)` +
        `\n    runs: ${incremental.map((s) => fmt(s.wallMs)).join(', ')} ms; phases (ms, medians): ${phases.join(', ')}`,
    );
  }
  await measureWatch(label, data, into, cache, runs, cleanWalls);
  await removeLater(leftovers);
}

/**
 * `site build --watch` (src/emit/watch.ts) over the same copy, output and cache: each edit saved beside the
 * running process, timed from the save to the JSON line of the build it started (`dist/` swapped; the watch's
 * 30 ms of quiet included), beside the --no-cache builds of the same edit above.
 */
async function measureWatch(
  label: string,
  data: string,
  into: { out: string; reports: string },
  cache: string,
  runs: number,
  cleanWalls: Map<string, number>,
): Promise<void> {
  const args = [BIN, 'build', '--watch', '--json', '--data-dir', data, '--out', into.out, '--reports', into.reports];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', SITE_CACHE_DIR: cache },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  const lines: Array<{ at: number; line: string }> = [];
  let wake: (() => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (d: Buffer) => {
    const at = performance.now();
    buffered += d;
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      lines.push({ at, line: buffered.slice(0, nl) });
      buffered = buffered.slice(nl + 1);
    }
    wake?.();
  });
  const next = async (): Promise<{ at: number; summary: { ok: boolean; rendered: number; peakRssBytes: number } }> => {
    while (lines.length === 0) {
      if (child.exitCode !== null) throw new Error(`site build --watch exited ${child.exitCode}: ${stderr.slice(-2000)}`);
      await new Promise<void>((resume) => {
        wake = resume;
        setTimeout(resume, 200);
      });
    }
    const { at, line } = lines.shift()!;
    return { at, summary: JSON.parse(line) };
  };
  try {
    await next();
    for (const [what, edit] of EDITS) {
      if (edit === null) continue;
      const walls: number[] = [];
      const rendered: number[] = [];
      let peak = 0;
      for (let run = 0; run < runs; run++) {
        // Quiet before each save: the last build's events are long flushed.
        await new Promise((resume) => setTimeout(resume, 300));
        const saved = performance.now();
        edit(data, runs + run);
        const { at, summary } = await next();
        if (!summary.ok) throw new Error(`site build --watch: the build after "${what}" failed: ${stderr.slice(-2000)}`);
        walls.push(at - saved);
        rendered.push(summary.rendered);
        peak = Math.max(peak, summary.peakRssBytes / 2 ** 20);
      }
      const wall = median(walls);
      const clean = cleanWalls.get(what);
      say(
        `site build --watch ${label}, ${what}: save to dist/ swapped, median ${fmt(wall)} ms, rendered ${rendered.join('/')}, peak RSS ${fmt(peak)} MB` +
          (clean === undefined ? '' : `; beside the --no-cache builds above (${fmt(clean)} ms): ${fmt(wall / clean, 3)}×`) +
          `\n    runs: ${walls.map((w) => fmt(w)).join(', ')} ms`,
      );
    }
  } finally {
    child.kill('SIGINT');
    await new Promise((resume) => (child.exitCode === null ? child.once('exit', resume) : resume(undefined)));
  }
}

/** The baseline: load, check, one model, renderRoute in a plain loop on this thread, optionally writing each page. */
async function measureLoop(label: string, dataDir: string, runs: number, write: boolean): Promise<void> {
  const samples: number[] = [];
  /** The loop alone, without loading and checking (which, past 64 MB of data, is never cached for a whole catalogue). */
  const loops: number[] = [];
  let pages = 0;
  const leftovers: string[] = [];
  for (let i = 0; i <= runs; i++) {
    const started = performance.now();
    const checked = await checkDataDir(dataDir);
    if (checked.catalogue === null) throw new Error(`${dataDir} does not load`);
    const looping = performance.now();
    const model = createSiteModel(checked.catalogue, readAssetRefs(defaultClientDir()));
    const out = fresh('loop');
    if (write) leftovers.push(out);
    for (const route of checked.routes) {
      const html = renderRoute(model, route);
      if (write) {
        const file = path.join(out, route.output);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, html);
      }
    }
    pages = checked.routes.length;
    // The first run warms caches and the JIT.
    if (i > 0) {
      samples.push(performance.now() - started);
      loops.push(performance.now() - looping);
    }
  }
  const wall = median(samples);
  const loop = median(loops);
  say(
    `${label}: ${pages} pages, wall median ${fmt(wall)} ms (${fmt(pages / (wall / 1000))} pages/s); ` +
      `the loop alone (model and pages, no load or check) ${fmt(loop)} ms (${fmt(pages / (loop / 1000))} pages/s)  (runs: ${samples.map((s) => fmt(s)).join(', ')})`,
  );
  await removeLater(leftovers);
}

/** Renames the folders aside first, then deletes them: later benchmark runs are not slowed by the delete. */
async function removeLater(dirs: string[]): Promise<void> {
  const aside = [...new Set(dirs)].filter(existsSync).map((d) => {
    const to = `${d}.deleting`;
    renameSync(d, to);
    return to;
  });
  await Promise.all(aside.map((d) => rm(d, { recursive: true, force: true })));
}

export async function run(args: string[]): Promise<void> {
  process.env.NODE_ENV = 'production';
  mkdirSync(OUT, { recursive: true });
  const runs = Number(flag(args, '--runs') || 5);
  const dataDir = flag(args, '--data-dir') || 'data';
  say(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on this machine (2 cores; figures are medians of ${runs})`,
  );
  const other = flag(args, '--bin');
  OTHER_BIN = other ? path.resolve(other) : undefined;
  const modes = new Set((flag(args, '--modes') || 'rebuild,fresh,cold,loops,edits').split(','));

  await measureShipped(dataDir, runs, modes);
  await measurePhotos(args, dataDir, runs);
  const synthetic = flag(args, '--synthetic');
  if (synthetic !== undefined) {
    const routes = Number(synthetic) || 100_000;
    const started = performance.now();
    const made = await makeSynthetic(dataDir, path.join(OUT, `synthetic-${routes}`), routes);
    say(
      `synthetic catalogue: ${made.routes} routes (${made.products} products, ${made.articles} articles), ${made.cached ? 'cached' : `made in ${fmt((performance.now() - started) / 1000, 1)} s`}`,
    );
    const synRuns = Math.min(runs, 3);
    if (modes.has('rebuild'))
      await measureBuild(`site build synthetic-${routes}, rebuild into the same dist, nothing changed`, made.dir, synRuns, [], 'rebuild');
    if (modes.has('fresh')) await measureBuild(`site build synthetic-${routes}, fresh output folder`, made.dir, synRuns);
    if (modes.has('cold'))
      await measureBuild(`site build synthetic-${routes}, cold: fresh output folder and no cache (a fresh clone)`, made.dir, synRuns, [], 'cold');
    if (modes.has('loops')) await measureLoop(`single-thread loop synthetic-${routes}, render only`, made.dir, 1, false);
    if (modes.has('edits')) await measureEdits(`synthetic-${routes}`, made.dir, synRuns);
  }
}

/** The shipped catalogue (or --data-dir): each way of building, then the plain loops and the two-thread probe. */
async function measureShipped(dataDir: string, runs: number, modes: ReadonlySet<string>): Promise<void> {
  if (modes.has('rebuild')) await measureBuild(`site build ${dataDir}, rebuild into the same dist, nothing changed`, dataDir, runs, [], 'rebuild');
  if (modes.has('fresh')) await measureBuild(`site build ${dataDir}, fresh output folder`, dataDir, runs);
  if (modes.has('cold')) await measureBuild(`site build ${dataDir}, cold: fresh output folder and no cache (a fresh clone)`, dataDir, runs, [], 'cold');
  if (modes.has('rebuild'))
    await measureBuild(
      `site build ${dataDir} --concurrency 2 (main thread and a worker), rebuild, nothing changed`,
      dataDir,
      runs,
      ['--concurrency', '2'],
      'rebuild',
    );
  if (modes.has('edits')) await measureEdits(dataDir, dataDir, runs);
  if (!modes.has('loops')) return;
  await measureLoop(`single-thread loop ${dataDir}, render only`, dataDir, runs, false);
  await measureLoop(`single-thread loop ${dataDir}, render + write`, dataDir, runs, true);
  const s = await measureScaling(dataDir);
  const both = s.together[0] + s.together[1];
  say(
    `two render threads at once, ${dataDir} (the warm loop, no files, no pool): one thread alone ${fmt(s.alone)} pages/s; ` +
      `two at once ${fmt(s.together[0])} + ${fmt(s.together[1])} = ${fmt(both)} pages/s, ${fmt(both / s.alone, 2)}× one thread. ` +
      `A loop streaming 64 MB of memory: ${fmt(s.streamAlone)} ms alone, ${fmt(s.streamTogether[0])} and ${fmt(s.streamTogether[1])} ms two at once`,
  );
}

/** --photos[=50]: a copy of the catalogue with N photographed products, with and without the image cache. */
async function measurePhotos(args: string[], dataDir: string, runs: number): Promise<void> {
  const photos = flag(args, '--photos');
  if (photos === undefined) return;
  const count = Number(photos) || 50;
  const started = performance.now();
  const made = await makePhotoCatalogue(dataDir, path.join(OUT, `photos-${count}`), count);
  say(
    `photo catalogue: ${made.photos} products with a ${PHOTO_SIZE.width}×${PHOTO_SIZE.height} JPEG each (${fmt(made.bytes / 2 ** 20, 1)} MiB, blurred noise: ` +
      `the encoder's worst case), ${made.cached ? 'cached' : `made in ${fmt((performance.now() - started) / 1000, 1)} s`}`,
  );
  const photoRuns = Math.min(runs, 3);
  await measureBuild(`site build photos-${count}, fresh output folder (the WebP copies from the image cache)`, made.dir, photoRuns);
  await measureBuild(`site build photos-${count}, cold: no cache, every copy encoded`, made.dir, photoRuns, [], 'cold');
}
