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
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = fileURLToPath(new URL('../../bin/site', import.meta.url));
const TIME = '/usr/bin/time';
const RUNS = 5;

interface Sample {
  wallMs: number;
  cpuMs: number | undefined;
}

let prioritized = false;

/** `args` are node's arguments: the script and its own. */
function timeRun(args: string[]): Sample {
  const withTime = existsSync(TIME);
  const node = prioritized ? ['chrt', '-f', '50', process.execPath, ...args] : [process.execPath, ...args];
  const [cmd, ...argv] = withTime ? [TIME, '-f', 'cpu %U %S', ...node] : node;
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', env: { ...process.env, GITHUB_ACTIONS: '' } });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status === 2 || r.error) throw new Error(`node ${args.join(' ')} failed to run: ${r.error?.message ?? r.stderr.trim()}`);
  const m = r.stderr.match(/cpu ([\d.]+) ([\d.]+)\s*$/);
  return { wallMs, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : undefined };
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
}
