/**
 * `npm run bench -- serve`: load figures of `site serve` beside nginx serving
 * the same dist/, in one run.
 *
 * Scenarios, each run `--runs` times (default 3), medians printed:
 *   pages/site          N connections GET the page set from `site serve`
 *   pages/nginx 1 worker  the same load against nginx with one worker process
 *                       (`site serve` is one Node process: the like-for-like baseline)
 *   pages/nginx auto    the same against nginx with `worker_processes auto`
 *   pages/node:http floor  the same against a bare node:http server answering
 *                       each page with the bytes `site serve` sent for it, from
 *                       a Map (`bench/serve-floor.ts`): node:http's own cost,
 *                       below which no handler of ours can go
 *   mixed/site          180 connections GET pages + 20 connections POST inquiries
 *                       to `site serve` at the same time (rate limit off)
 * with N = 50 and 200. Within a run the scenarios take turns, so that a
 * change in the machine's load falls on all of them alike. Before them,
 * start-up: `site serve` spawned `--runs` times, from spawn to its first
 * 200 for `/`.
 *
 * nginx is /usr/sbin/nginx (or $NGINX), started unprivileged from a config
 * written into the bench's temp folder: `try_files $uri $uri/index.html =404`,
 * its defaults otherwise (sendfile, no compression, 75 s keep-alive), no
 * access log (`site serve` keeps none either). Requests carry a browser's
 * Accept-Encoding, so `site serve` sends its brotli bodies.
 *
 * `--old=<checkout>` adds `site old`: the `bin/site serve` of another
 * compiled checkout (say, main), under the same load in the same run.
 *
 * The site served is `--dir=<folder>` if given, else `dist/` when it has been
 * built, else a synthetic dist made of the serve test fixture with 300
 * product pages. `--runs=n` and `--duration=seconds` change the schedule
 * (`npm run bench -- serve --dir=dist --runs=5`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

interface AutocannonResult {
  requests: { average: number };
  latency: { p99: number; p50: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const require = createRequire(import.meta.url);
const autocannon = require('autocannon') as Autocannon;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/site');
const FLOOR = join(ROOT, 'build/bench/serve-floor.js');
const FIXTURE = join(ROOT, 'tests/fixtures/serve-dist');
const HEADERS = { 'accept-encoding': 'gzip, deflate, br', accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** `--name=value` (bench/run.ts would take a separate value for a section name) or `--name value`. */
function optionText(args: string[], name: string): string | undefined {
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  if (eq) return eq.slice(name.length + 3);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function option(args: string[], name: string, fallback: number): number {
  const n = Number(optionText(args, name) ?? fallback);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name}: expected a positive number`);
  return n;
}

function syntheticDist(dir: string): string {
  const dist = join(dir, 'dist');
  cpSync(FIXTURE, dist, { recursive: true });
  const product = readFileSync(join(FIXTURE, 'monomer/bulk-curcumin/index.html'), 'utf8');
  for (let i = 0; i < 300; i++) {
    const page = join(dist, 'monomer', `product-${i}`);
    mkdirSync(page, { recursive: true });
    writeFileSync(
      join(page, 'index.html'),
      product.replaceAll('Bulk Curcumin', `Product ${i}`).replace('</main>', `<p>${'Specification and assay details. '.repeat(40 + (i % 20))}</p></main>`),
    );
  }
  return dist;
}

/** Up to `max` clean URLs of pages, spread over the whole site, deterministic. */
function pagePaths(dist: string, max: number): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const abs = join(dir, e.name);
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'assets') walk(abs);
      else if (e.name === 'index.html') {
        const rel = relative(dist, dir).split(sep).join('/');
        found.push(rel === '' ? '/' : `/${rel}`);
      }
    }
  };
  walk(dist);
  const step = Math.max(1, Math.floor(found.length / max));
  return found.filter((_, i) => i % step === 0).slice(0, max);
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
    s.on('error', fail);
  });
}

async function waitUntilUp(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before answering ${url}`);
    try {
      const r = await fetch(url);
      if (r.status < 500) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no answer from ${url} within ${timeoutMs} ms`);
}

/** `bin serve` of `dist` started afresh: ms from spawn to its first 200 for `/` (polled every 5 ms), then stopped. */
async function startUp(bin: string, dist: string, dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [bin, 'serve', '--dir', dist, '--port', String(port), '--data-dir', dataDir], { stdio: 'ignore', detached: true });
  const ok = (): Promise<boolean> =>
    new Promise((done) => {
      const req = request({ host: '127.0.0.1', port, path: '/' }, (res) => {
        res.resume();
        done(res.statusCode === 200);
      });
      req.on('error', () => done(false));
      req.end();
    });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${bin} serve exited with ${child.exitCode} before answering`);
      if (await ok()) return performance.now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await stop(child);
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    // Detached: each server is a process group of its own (nginx: master and workers).
    process.kill(-child.pid!, 'SIGTERM');
  });
}

/** What `site serve` answers for one page under the bench's request headers, as the floor server replays it. */
function recordAnswer(url: string, path: string): Promise<{ path: string; status: number; headers: string[]; body: string }> {
  // node:http adds these itself on every answer.
  const own = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  return new Promise((done, fail) => {
    request(`${url}${path}`, { headers: HEADERS }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (!own.has(res.rawHeaders[i].toLowerCase())) headers.push(res.rawHeaders[i], res.rawHeaders[i + 1]);
        }
        done({ path, status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
      });
      res.on('error', fail);
    })
      .on('error', fail)
      .end();
  });
}

const pageRequests = (paths: string[]) => paths.map((path) => ({ method: 'GET', path }));

async function load(url: string, connections: number, seconds: number, requests: object[]): Promise<AutocannonResult> {
  return autocannon({ url, connections, duration: seconds, headers: HEADERS, requests, pipelining: 1 });
}

interface Figures {
  rps: number;
  p99: number;
  failed: number;
  /** CPU time the server's processes spent per request (µs), NaN where /proc cannot tell. */
  cpuUs: number;
}
const figures = (r: AutocannonResult, cpuMs: number): Figures => {
  const requests = r['2xx'] + r.non2xx;
  return { rps: r.requests.average, p99: r.latency.p99, failed: r.non2xx + r.errors + r.timeouts, cpuUs: (cpuMs * 1000) / requests };
};

/**
 * CPU time (ms, user + system) used so far by the processes of a process
 * group (a server and, for nginx, its workers), from /proc; NaN elsewhere.
 * On a shared machine this is steadier than requests per second: it does
 * not count the time the server waited for a core.
 */
function cpuMsOfGroup(pgid: number): number {
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  let ticks = 0;
  try {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      // After "pid (comm) ": state ppid pgrp … utime is field 14 and stime 15 of the whole line.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    }
  } catch {
    return NaN;
  }
  return ticks * tick;
}

/** One load against a server, with the CPU time its processes spent on it. */
async function measured(server: { child: ChildProcess }, run: () => Promise<AutocannonResult>): Promise<[AutocannonResult, number]> {
  const before = cpuMsOfGroup(server.child.pid!);
  const r = await run();
  return [r, cpuMsOfGroup(server.child.pid!) - before];
}

const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

/** nginx serving `dist` on 127.0.0.1:port from a config in `dir`, everything it writes inside `dir`. */
function startNginx(dir: string, dist: string, port: number, workers: string): ChildProcess {
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `  ${name}_temp_path ${join(dir, 'tmp', name)};`).join('\n');
  writeFileSync(
    join(dir, 'nginx.conf'),
    // As root, nginx's workers would drop to `nobody`, who cannot read a dist/ in a private temp folder.
    `${process.getuid?.() === 0 ? 'user root root;\n' : ''}worker_processes ${workers};
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} error;
events { worker_connections 4096; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  access_log off;
  sendfile on;
${temp}
  server {
    listen 127.0.0.1:${port};
    root ${dist};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  return spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore', detached: true });
}

const CONNECTIONS = [200, 50] as const;

export async function run(args: string[]): Promise<void> {
  const runs = option(args, 'runs', 3);
  const seconds = option(args, 'duration', 5);
  const work = mkdtempSync(join(tmpdir(), 'site-serve-bench-'));
  const dirOption = optionText(args, 'dir');
  const given = dirOption ? resolve(dirOption) : null;
  const built = join(ROOT, 'dist');
  const dist = given ?? (existsSync(join(built, 'index.html')) ? built : syntheticDist(work));
  const paths = pagePaths(dist, 60);
  const what = given ? given : dist === built ? 'dist/' : 'synthetic dist (no dist/ built yet)';
  process.stdout.write(`site: ${what}, ${paths.length} pages cycled; ${runs} runs of ${seconds} s; Accept-Encoding: ${HEADERS['accept-encoding']}\n`);

  const startSite = async (name: string, bin: string) => {
    const port = await freePort();
    const child = spawn(
      process.execPath,
      [bin, 'serve', '--dir', dist, '--port', String(port), '--data-dir', join(work, `data-${name}`), '--rate-limit', '0'],
      {
        env: { ...process.env, NODE_ENV: 'production' },
        stdio: 'ignore',
        detached: true,
      },
    );
    return { name, url: `http://127.0.0.1:${port}`, child };
  };
  const old = optionText(args, 'old');
  // Start-up first, each server alone on the machine: from spawn to the first page.
  const bins: Array<[string, string]> = [['site', BIN], ...(old ? [['site old', join(resolve(old), 'bin/site')] as [string, string]] : [])];
  const starts = new Map<string, number[]>();
  for (let i = 0; i < runs; i++) {
    for (const [name, bin] of bins) starts.set(name, [...(starts.get(name) ?? []), await startUp(bin, dist, join(work, `start-${i}-${name}`))]);
  }
  for (const [name, ms] of starts) {
    process.stdout.write(
      `start-up ${name}: spawn to the first 200 of / in ${median(ms).toFixed(0)} ms median (runs: ${ms.map((m) => m.toFixed(0)).join(', ')})\n`,
    );
  }

  const servers: Array<{ name: string; url: string; child: ChildProcess }> = [await startSite('site', BIN)];
  if (old) servers.push(await startSite('site old', join(resolve(old), 'bin/site')));
  if (existsSync(NGINX)) {
    for (const [name, workers] of [
      ['nginx 1 worker', '1'],
      ['nginx auto', 'auto'],
    ] as const) {
      const port = await freePort();
      const dir = join(work, name.replace(/\W+/g, '-'));
      servers.push({ name, url: `http://127.0.0.1:${port}`, child: startNginx(dir, dist, port, workers) });
    }
  } else {
    process.stdout.write(`no nginx at ${NGINX} (apt-get install nginx-light, or set NGINX): site serve is measured alone\n`);
  }
  const siteUrl = servers[0].url;
  try {
    for (const s of servers) await waitUntilUp(s.url, s.child);
    const recorded = join(work, 'floor.json');
    writeFileSync(recorded, JSON.stringify(await Promise.all(paths.map((path) => recordAnswer(siteUrl, path)))));
    const floorPort = await freePort();
    const floor = {
      name: 'node:http floor',
      url: `http://127.0.0.1:${floorPort}`,
      child: spawn(process.execPath, [FLOOR, recorded, String(floorPort)], { stdio: 'ignore', detached: true }),
    };
    servers.push(floor);
    await waitUntilUp(floor.url, floor.child);
    const inquiry = JSON.stringify({
      name: 'Bench Buyer',
      email: 'bench@buyer.example',
      type: 'quote',
      product: 'Bulk Curcumin',
      quantity: '25 kg',
      message: 'Benchmark inquiry: please quote 25 kg with COA.',
      page: paths[0],
      _started: String(Date.now() - 60_000),
      website: '',
    });
    const posts = [{ method: 'POST', path: '/api/inquiry', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: inquiry }];

    // Warm-up: every server sees every page once in each encoding the load uses.
    for (const s of servers) await load(s.url, 20, 1, pageRequests(paths));

    const results = new Map<string, Figures[]>();
    const record = (name: string, [r, cpuMs]: [AutocannonResult, number]) => results.set(name, [...(results.get(name) ?? []), figures(r, cpuMs)]);
    for (let i = 0; i < runs; i++) {
      for (const connections of CONNECTIONS) {
        for (const s of servers) record(`pages/${s.name} ${connections}`, await measured(s, () => load(s.url, connections, seconds, pageRequests(paths))));
      }
      const [pages, inquiries] = await Promise.all([load(siteUrl, 180, seconds, pageRequests(paths)), load(siteUrl, 20, seconds, posts)]);
      // The CPU time of the mixed load is not split between its two parts.
      record('mixed/site pages', [pages, NaN]);
      record('mixed/site inquiries', [inquiries, NaN]);
    }

    process.stdout.write(
      `${'scenario'.padEnd(28)}${'req/s (median)'.padStart(16)}${'p99 ms (median)'.padStart(17)}${'failed (sum)'.padStart(14)}${'CPU µs/req (median)'.padStart(21)}\n`,
    );
    for (const [name, rs] of results) {
      const rps = median(rs.map((r) => r.rps));
      const p99 = median(rs.map((r) => r.p99));
      const failed = rs.reduce((a, r) => a + r.failed, 0);
      const cpu = median(rs.map((r) => r.cpuUs));
      const cpuText = Number.isFinite(cpu) ? cpu.toFixed(0) : '-';
      process.stdout.write(
        `${name.padEnd(28)}${rps.toFixed(0).padStart(16)}${p99.toFixed(1).padStart(17)}${String(failed).padStart(14)}${cpuText.padStart(21)}\n`,
      );
    }
    const rpsOf = (name: string) => median((results.get(name) ?? []).map((r) => r.rps));
    const nginxes = servers.filter((s) => s.name.startsWith('nginx'));
    for (const connections of CONNECTIONS) {
      const goal = connections === 200 ? 0.85 : 0.95;
      for (const ours of servers.filter((s) => !s.name.startsWith('nginx'))) {
        const ratios = nginxes.map((s) => `${s.name} ${(rpsOf(`pages/${ours.name} ${connections}`) / rpsOf(`pages/${s.name} ${connections}`)).toFixed(2)}x`);
        if (ratios.length > 0)
          process.stdout.write(`pages at ${connections} connections: ${ours.name} / ${ratios.join(', / ')} (goal >= ${goal} of nginx 1 worker)\n`);
      }
    }
    const lost = (results.get('mixed/site inquiries') ?? []).reduce((a, r) => a + r.failed, 0);
    process.stdout.write(`failed inquiries under 200 connections: ${lost} (goal 0)\n`);
  } finally {
    await Promise.all(servers.map((s) => stop(s.child)));
    rmSync(work, { recursive: true, force: true });
  }
}

// Run directly: node build/bench/serve.bench.js
if (resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) await run(process.argv.slice(2));
