/**
 * The floor: what rendering alone costs a fresh process on this machine, so
 * that the build's budgets (issue 3 §4) can be read against what any build
 * with these templates must spend. Each run spawns bench/floor-child.ts,
 * which imports React and the templates, reads an already validated
 * catalogue from one v8-serialized file, makes the site model and renders
 * every route to strings, and writes nothing. Then the same with the routes
 * split between two processes started at once (the best any two render
 * threads could do: no messages, no shared heap, no pool).
 *
 *   npm run bench -- floor                       shipped data/, 5 runs
 *   npm run bench -- floor --synthetic[=100000]  also the synthetic catalogue (bench/synthetic.ts), at most 3 runs
 *   npm run bench -- floor --runs=9 --data-dir=<dir>
 *
 * Whole-process wall time, medians; runs alternate one process and two.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { checkDataDir } from '../src/check/run.js';
import { defaultClientDir, readAssetRefs } from '../src/emit/files/assets.js';
import { makeSynthetic } from './synthetic.js';
import { flag, median } from './args.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./floor-child.js', import.meta.url));

interface ChildTimes {
  imported: number;
  loaded: number;
  modelled: number;
  rendered: number;
  pages: number;
  chars: number;
}

interface Sample {
  wallMs: number;
  /** One entry per process. */
  children: ChildTimes[];
}

const fmt = (n: number) => n.toFixed(0);
const say = (s: string) => void process.stdout.write(s + '\n');

function child(file: string, part: number, parts: number): Promise<ChildTimes> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [CHILD, file, String(part), String(parts)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (d: Buffer) => (out += d));
    proc.stderr.on('data', (d: Buffer) => (err += d));
    proc.on('error', reject);
    proc.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as ChildTimes) : reject(new Error(`floor child exited ${code}: ${err.slice(-2000)}`))));
  });
}

async function sample(file: string, parts: number): Promise<Sample> {
  const started = performance.now();
  const children = await Promise.all(Array.from({ length: parts }, (_, part) => child(file, part, parts)));
  return { wallMs: performance.now() - started, children };
}

/** The validated catalogue, its resolved routes and the asset names, as one file a child reads in one go. */
async function catalogueFile(dataDir: string): Promise<{ file: string; routes: number; bytes: number; dir: string }> {
  const checked = await checkDataDir(dataDir);
  if (checked.catalogue === null) throw new Error(`${dataDir} does not load`);
  // The WeakMaps say where entities came from, which rendering never reads; they do not serialize.
  const { sourceOf: _sourceOf, bodies: _bodies, valueDigests: _valueDigests, ...catalogue } = checked.catalogue;
  const bytes = serialize({ catalogue, routes: checked.routes, assets: readAssetRefs(defaultClientDir()) });
  const dir = mkdtempSync(path.join(tmpdir(), 'site-floor-'));
  const file = path.join(dir, 'catalogue.v8');
  writeFileSync(file, bytes);
  return { file, routes: checked.routes.length, bytes: bytes.length, dir };
}

async function measure(label: string, dataDir: string, runs: number, budgetMs: number): Promise<void> {
  const { file, routes, bytes, dir } = await catalogueFile(dataDir);
  try {
    await sample(file, 1); // warms the file cache and the compiled modules on disk
    const one: Sample[] = [];
    const two: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      // Alternating: a slow minute of the shared machine falls on both.
      if (i % 2 === 0) {
        one.push(await sample(file, 1));
        two.push(await sample(file, 2));
      } else {
        two.push(await sample(file, 2));
        one.push(await sample(file, 1));
      }
    }
    const step = (s: Sample[], k: keyof ChildTimes) => fmt(median(s.map((x) => Math.max(...x.children.map((c) => c[k])))));
    const renderOnly = (s: Sample[]) => fmt(median(s.map((x) => Math.max(...x.children.map((c) => c.rendered - c.modelled)))));
    const wallOne = median(one.map((s) => s.wallMs));
    const wallTwo = median(two.map((s) => s.wallMs));
    say(
      `${label}: ${routes} routes rendered to strings (${(one[0].children[0].chars / 2 ** 20).toFixed(1)} M characters; catalogue file ${(bytes / 2 ** 20).toFixed(1)} MiB), nothing written`,
    );
    say(
      `    one process:   wall median ${fmt(wallOne)} ms; since its start: imports done ${step(one, 'imported')}, catalogue read ${step(one, 'loaded')}, ` +
        `model ${step(one, 'modelled')}, every route rendered ${step(one, 'rendered')} (the render loop alone ${renderOnly(one)})  runs: ${one.map((s) => fmt(s.wallMs)).join(', ')}`,
    );
    say(
      `    two processes at once, half the routes each: wall median ${fmt(wallTwo)} ms (the slower of the two: imports done ${step(two, 'imported')}, ` +
        `read ${step(two, 'loaded')}, model ${step(two, 'modelled')}, rendered ${step(two, 'rendered')}, its loop alone ${renderOnly(two)})  runs: ${two.map((s) => fmt(s.wallMs)).join(', ')}`,
    );
    const best = Math.min(wallOne, wallTwo);
    say(
      `    build budget ${fmt(budgetMs)} ms; this floor, without check, writes or link check: ${fmt(best)} ms (${((best / budgetMs) * 100).toFixed(0)} % of the budget)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') || 5);
  const dataDir = flag(args, '--data-dir') || 'data';
  say(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on this machine (2 cores; figures are medians of ${runs})`,
  );
  await measure(`floor ${dataDir}`, dataDir, runs, 1_000);
  const synthetic = flag(args, '--synthetic');
  if (synthetic !== undefined) {
    const routes = Number(synthetic) || 100_000;
    const made = await makeSynthetic(dataDir, path.join(ROOT, 'bench/out', `synthetic-${routes}`), routes);
    await measure(`floor synthetic-${routes}`, made.dir, Math.min(runs, 3), 40_000);
  }
}
