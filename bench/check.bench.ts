/**
 * `site check` and `site --help` as whole processes, the way a developer or
 * CI runs them: node start-up, imports, reading data/ and checking it.
 * Budgets (issue 2 §5): check under 300 ms, --help under 150 ms, wall time,
 * medians of 5 after one warm-up run. `site check` is measured cold (its
 * result cache cleared before every run, so each run loads, checks and writes
 * the cache), warm (unchanged data: read, hash, reuse) and with --no-cache. The machine is shared, so the CPU time
 * of the process (user + system, from /usr/bin/time when present) and the
 * load average are printed too: they tell a slow tool from a busy machine.
 *
 *   npm run bench -- check                   (the shipped data/)
 *   npm run bench -- check --data-dir <dir>  (another catalogue)
 *   npm run bench -- check --prioritized     (runs under `chrt -f 50`: on a
 *     machine busy with other work this approximates an idle one; needs root)
 *   npm run bench -- check --synthetic[=100000]   also the synthetic catalogue
 *     (bench/synthetic.ts): unchanged, one article's body edited, from scratch
 *   npm run bench -- check --bin=<other checkout>/bin/site   each run paired
 *     with the same run of the other build of the tool, in turn (A B A B …)
 *
 * "One article's body edited": before each run (untimed) one article of a
 * copy of the catalogue gets a new paragraph, different every time, so each
 * run checks a catalogue one file away from the one its cache last saw.
 * The synthetic catalogue is edited in place and the article put back after.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { flag } from './args.js';
import { makeSynthetic } from './synthetic.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/site', import.meta.url));
const TIME = '/usr/bin/time';
const RUNS = 5;

interface Sample {
  wallMs: number;
  cpuMs: number | undefined;
  /** Peak resident memory of the process, from /usr/bin/time when present. */
  rssMb: number | undefined;
}

let prioritized = false;

/** `args` are node's arguments: the script and its own. */
function timeRun(args: string[]): Sample {
  const withTime = existsSync(TIME);
  const node = prioritized ? ['chrt', '-f', '50', process.execPath, ...args] : [process.execPath, ...args];
  const [cmd, ...argv] = withTime ? [TIME, '-f', 'cpu %U %S %M', ...node] : node;
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, GITHUB_ACTIONS: '' } });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status === 2 || r.error) throw new Error(`node ${args.join(' ')} failed to run: ${r.error?.message ?? r.stderr.trim()}`);
  const m = r.stderr.match(/cpu ([\d.]+) ([\d.]+) (\d+)\s*$/);
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined, rssMb: m ? Number(m[3]) / 1024 : undefined };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `before` runs ahead of every timed run, outside the timing (clearing a cache). */
function measure(label: string, args: string[], budgetMs?: number, before: () => void = () => {}): void {
  before();
  timeRun(args); // warm the file cache: the first run measures the disk, not the tool
  const samples = Array.from({ length: RUNS }, () => {
    before();
    return timeRun(args);
  });
  const wall = median(samples.map((s) => s.wallMs));
  const cpus = samples.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
  const cpu = cpus.length > 0 ? `, cpu median ${median(cpus).toFixed(0)} ms` : '';
  process.stdout.write(
    `${label.padEnd(24)} wall median ${wall.toFixed(0).padStart(4)} ms${cpu}  (wall runs: ${samples.map((s) => s.wallMs.toFixed(0)).join(', ')})${budgetMs === undefined ? '' : `  budget ${budgetMs} ms: ${wall <= budgetMs ? 'within' : 'OVER'}`}\n`,
  );
}

/** A build of the tool and the cache folder of its own that it checks with (two builds never share an entry). */
interface Tool {
  name: string;
  bin: string;
  cacheDir: string;
}

/**
 * Runs each tool in turn (A B A B …, after one untimed run each) and prints
 * each one's medians. `before` runs ahead of every run of a tool, untimed.
 */
function measurePaired(label: string, tools: readonly Tool[], args: (tool: Tool) => string[], runs: number, before: (tool: Tool) => void = () => {}): void {
  for (const tool of tools) {
    before(tool);
    timeRun(args(tool));
  }
  const samples = new Map(tools.map((t) => [t, [] as Sample[]]));
  for (let i = 0; i < runs; i++) {
    for (const tool of tools) {
      before(tool);
      samples.get(tool)!.push(timeRun(args(tool)));
    }
  }
  for (const tool of tools) {
    const xs = samples.get(tool)!;
    const of = (pick: (s: Sample) => number | undefined) => {
      const v = xs.flatMap((s) => (pick(s) === undefined ? [] : [pick(s)!]));
      return v.length > 0 ? median(v) : undefined;
    };
    const cpu = of((s) => s.cpuMs);
    const rss = of((s) => s.rssMb);
    process.stdout.write(
      `${`${label}${tools.length > 1 ? ` [${tool.name}]` : ''}`.padEnd(60)} wall median ${median(xs.map((s) => s.wallMs))
        .toFixed(0)
        .padStart(
          6,
        )} ms${cpu === undefined ? '' : `, cpu ${cpu.toFixed(0)} ms`}${rss === undefined ? '' : `, peak ${rss.toFixed(0)} MB`}  (wall runs: ${xs.map((s) => s.wallMs.toFixed(0)).join(', ')})\n`,
    );
  }
}

/** Gives one article of `dataDir` a new paragraph, different on every call; `restore` puts its bytes back. */
function articleEditor(dataDir: string): { edit: () => void; restore: () => void } {
  const dir = join(dataDir, 'articles');
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  const file = join(dir, names[Math.floor(names.length / 2)]);
  const original = readFileSync(file);
  let n = 0;
  return {
    edit() {
      const doc = JSON.parse(original.toString('utf8')) as { body: unknown[] };
      doc.body.push({ type: 'paragraph', text: `Bench edit ${++n}.` });
      writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    },
    restore: () => writeFileSync(file, original),
  };
}

/** The three ways a check meets a catalogue: unchanged since its cache, one article edited, from scratch. */
function measureCatalogue(name: string, dataDir: string, tools: readonly Tool[], runs: number, editable: boolean): void {
  const check = (tool: Tool) => [tool.bin, 'check', '--data-dir', dataDir, '--cache-dir', tool.cacheDir];
  measurePaired(`site check ${name}, unchanged`, tools, check, runs);
  if (editable) {
    const editor = articleEditor(dataDir);
    try {
      measurePaired(`site check ${name}, one article's body edited`, tools, check, runs, editor.edit);
    } finally {
      editor.restore();
    }
  }
  measurePaired(`site check ${name} --no-cache (from scratch)`, tools, (t) => [...check(t), '--no-cache'], runs);
}

export async function run(args: string[]): Promise<void> {
  const i = args.indexOf('--data-dir');
  const dataDir = i >= 0 ? args[i + 1] : 'data';
  prioritized = args.includes('--prioritized');
  process.stdout.write(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on this machine${prioritized ? '; runs prioritized with chrt -f 50' : ''}\n`,
  );
  // Node's own start-up on this machine, the floor under both budgets.
  measure('node -e 0 (baseline)', ['-e', '0']);
  // A private cache folder: the bench neither uses nor spoils the developer's.
  const cacheDir = mkdtempSync(join(tmpdir(), 'site-bench-check-'));
  const check = [BIN, 'check', '--data-dir', dataDir, '--cache-dir', cacheDir];
  try {
    measure('site check, cold', check, undefined, () => rmSync(cacheDir, { recursive: true, force: true }));
    measure('site check, warm', check, 300);
    measure('site check --no-cache', [...check, '--no-cache']);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  measure('site --help', [BIN, '--help'], 150);
  await measureIncremental(args, dataDir);
}

/** Unchanged, one article edited and from scratch, on a copy of the catalogue (and with --synthetic a large one), beside --bin's build. */
async function measureIncremental(args: string[], dataDir: string): Promise<void> {
  const other = flag(args, '--bin');
  const scratch = mkdtempSync(join(tmpdir(), 'site-bench-incremental-'));
  const tools: Tool[] = [{ name: 'this', bin: BIN, cacheDir: join(scratch, 'cache-this') }];
  if (other) tools.push({ name: other, bin: resolve(other), cacheDir: join(scratch, 'cache-other') });
  try {
    // A copy, edited freely; left to settle first, as a checkout's files are (src/load/file-stat.ts).
    const copy = join(scratch, 'data');
    cpSync(dataDir, copy, { recursive: true });
    await new Promise((r) => setTimeout(r, 2500));
    measureCatalogue(dataDir, copy, tools, RUNS, true);
    const synthetic = flag(args, '--synthetic');
    if (synthetic !== undefined) {
      const routes = Number(synthetic) || 100_000;
      const made = await makeSynthetic(dataDir, join(ROOT, 'bench/out', `synthetic-${routes}`), routes);
      process.stdout.write(`synthetic catalogue: ${made.routes} routes (${made.products} products, ${made.articles} articles)\n`);
      measureCatalogue(`synthetic-${routes}`, made.dir, tools, 3, true);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
