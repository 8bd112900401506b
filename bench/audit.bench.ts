/**
 * `site audit` as a whole process on a site the size of the shipped one
 * (~1,420 pages) and on a 100,000-route synthetic site, medians of 5, with
 * peak memory; and linkinator (the link-checking anchor) on the same dist
 * served on localhost.
 *
 *   npm run bench -- audit                       (synthetic 1,420 and 100,000; linkinator on 1,420)
 *   npm run bench -- audit --dir=dist            (also a real dist, with reports/build-routes.json or --reports=<dir>)
 *   npm run bench -- audit --sizes=1420,10000 --linkinator-max=10000 --runs=3 --no-linkinator
 *   npm run bench -- audit --dir=dist --sizes= --chrt              (the shipped site at real-time priority)
 *   npm run bench -- audit --bin=/tmp/other/bin/site               (another build of site, to compare)
 *   npm run bench -- audit --crawl --dir=dist --sizes=                (also `site audit URL` against linkinator, both over site serve)
 *
 * --chrt runs each audit under `chrt -f 50` (needs root): on a machine
 * other people are loading it measures the audit rather than the queue for
 * the cores. Use it for short runs only; a 100,000-page run at real-time
 * priority would starve everyone else for minutes.
 *
 * --crawl serves the dist with `site serve` on 127.0.0.1 and crawls it with
 * `site audit URL --concurrency 8` and with linkinator 6 (`--concurrency 8
 * --recurse`, started from its installed bin, not through npx each time),
 * alternating, medians of --runs; it prints pages reached, sitemap URLs not
 * reached and broken URLs of each. Budget (issue 19): under a fifth of
 * linkinator's time. With --chrt both crawlers run at real-time priority.
 * Each run also times the crawl's two floors (`bench/crawl-floor.ts`):
 * fetching the crawl's URLs with its client and nothing else, and reading
 * its pages with nothing else.
 *
 * Budgets (issue 5): 1,500 pages under 2 s, 100,000 under 60 s with bounded memory.
 * Synthetic sites are generated once into the temp folder and reused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let BIN = fileURLToPath(new URL('../../bin/site', import.meta.url));
const DEFAULT_RUNS = 5;
const CRAWL_FLOOR = fileURLToPath(new URL('./crawl-floor.js', import.meta.url));
let RUNS = DEFAULT_RUNS;
let CHRT = false;
const ORIGIN = 'https://www.example-extracts.com';
const FORMAT = 3; // bump when the synthetic pages change

const WORDS = (
  'extract powder assay purity batch factory sample bulk wholesale supplier quality analysis certificate herb root leaf ' +
  'seed fruit flower bark mushroom protein vitamin amino acid capsule solvent ethanol water drying spray milling mesh ' +
  'moisture heavy metal microbial storage package drum foil export label dosage safety study research benefit immune ' +
  'energy digestion sleep skin joint antioxidant flavonoid polyphenol saponin peptide curcumin quercetin berberine ' +
  'inulin stevia melatonin lecithin creatine buyer order quote delivery harvest organic standardized ratio marker ' +
  'chromatography laboratory specification appearance solubility stability temperature'
).split(' ');

function prose(seed: number, count: number): string {
  let s = seed * 2654435761 || 1;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out.push(WORDS[(s >>> 0) % WORDS.length]);
  }
  return out.join(' ');
}

const FORM = ['name', 'email', 'company', 'country', 'phone', 'product', 'quantity', 'message']
  .map(
    (f) =>
      `<div class="field" data-field="${f}"><label for="q-${f}">${f}</label><input id="q-${f}" name="${f}"><p class="field-error" id="q-${f}-error" data-error-for="${f}" hidden></p></div>`,
  )
  .join('');

interface SynthPage {
  path: string;
  screen: string;
  title: string;
  h1: string;
  links: string[];
  seed: number;
  ld: object | null;
}

function renderSynth(p: SynthPage, nav: string): string {
  const desc = `${p.h1}: specification, assay, packaging, delivery in 1-2 working days and free samples from our GMP factory.`;
  const ld = p.ld ? `<script type="application/ld+json">${JSON.stringify(p.ld).replace(/</g, '\\u003c')}</script>` : '';
  return `<!doctype html><html lang="en" data-online="true"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${p.title}</title><meta name="description" content="${desc}"><meta name="keywords" content="${p.h1}, bulk, wholesale">
<link rel="canonical" href="${ORIGIN}${p.path}"><link rel="stylesheet" href="/assets/main.css"><script type="module" src="/assets/main.js"></script>${ld}</head>
<body data-screen="${p.screen}"><div id="loading-bar" class="loading-bar" hidden></div><header>${nav}</header>
<main><nav aria-label="Breadcrumb"><a href="/">Home</a></nav><h1>${p.h1}</h1><p>${prose(p.seed, 260)}</p>
<h2>Related</h2><ul>${p.links.map((l) => `<li><a href="${l}">Related page ${l.split('/').pop()}</a></li>`).join('')}</ul>
<img src="/images/products/p${p.seed % 50}.svg" alt="${p.h1}" width="400" height="400">
<form class="inquiry-form" data-inquiry-form action="/api/inquiry" method="post">${FORM}<button type="submit">Send inquiry</button></form></main>
<footer><a href="/about-us">About us</a> <a href="/contact-us">Contact us</a> <a href="/news">News</a> <p>Example Extracts, GMP factory since 2009.</p></footer></body></html>
`;
}

/** A catalogue-shaped site: categories with paged lists, products, articles with a paged knowledge list. */
export function generate(dir: string, routes: number): void {
  const marker = join(dir, '.synthetic');
  if (existsSync(marker) && readFileSync(marker, 'utf8') === `${FORMAT}:${routes}`) return;
  process.stdout.write(`generating a ${routes}-route synthetic site in ${dir} …\n`);
  if (existsSync(dir)) renameSync(dir, `${dir}.old-${process.pid}`); // delete later: big deletes slow the disk down
  const PER_PAGE = 20;
  const categories = 17;
  const products = Math.round(routes * 0.3);
  const articles = Math.max(1, routes - products - 1 - 5);
  const pages: SynthPage[] = [];
  const cat = (c: number) => `/category-${c}`;
  const product = (i: number) => `${cat(i % categories)}/product-${i}`;
  const article = (i: number) => `/knowledge/article-${i}`;
  const listPath = (base: string, n: number) => (n === 1 ? base : `${base}/page-${n}`);
  const pushList = (base: string, screen: string, items: string[]) => {
    const count = Math.max(1, Math.ceil(items.length / PER_PAGE));
    for (let n = 1; n <= count && pages.length < routes; n++) {
      const links = items.slice((n - 1) * PER_PAGE, n * PER_PAGE);
      if (n > 1) links.push(listPath(base, n - 1));
      if (n < count) links.push(listPath(base, n + 1));
      pages.push({
        path: listPath(base, n),
        screen,
        title: `${base.slice(1)} list page ${n} - Example Extracts`,
        h1: `${base.slice(1)} page ${n}`,
        links,
        seed: pages.length + 1,
        ld: null,
      });
    }
  };
  pages.push({
    path: '/',
    screen: 'home',
    title: 'Herb extracts supplier and GMP factory - Example',
    h1: 'Herb extract supplier',
    links: [],
    seed: 1,
    ld: null,
  });
  for (const p of ['/about-us', '/contact-us', '/news', '/search', '/thanks']) {
    pages.push({
      path: p,
      screen: p.slice(1),
      title: `${p.slice(1)} - Example Extracts supplier`,
      h1: p.slice(1),
      links: [],
      seed: pages.length + 1,
      ld: null,
    });
  }
  for (let c = 0; c < categories; c++) {
    const items: string[] = [];
    for (let i = c; i < products; i += categories) items.push(product(i));
    pushList(cat(c), 'category', items);
  }
  pushList(
    '/knowledge',
    'knowledge',
    Array.from({ length: articles }, (_, i) => article(i)),
  );
  for (let i = 0; i < products && pages.length < routes; i++) {
    const name = `Product ${i} extract powder`;
    pages.push({
      path: product(i),
      screen: 'product',
      title: `${name} - Example`,
      h1: name,
      links: [product((i + 1) % products), product((i + 7) % products), article(i % articles)],
      seed: pages.length + 1,
      ld: { '@context': 'https://schema.org', '@type': 'Product', name, description: 'Bulk extract.', image: `${ORIGIN}/images/products/p${i % 50}.svg` },
    });
  }
  for (let i = 0; pages.length < routes; i++) {
    const headline = `Article ${i} about plant extracts`;
    pages.push({
      path: article(i),
      screen: 'article',
      title: `${headline} - Example`,
      h1: headline,
      links: [article((i + 1) % articles), product(i % products)],
      seed: pages.length + 1,
      ld: {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline,
        image: `${ORIGIN}/images/a.svg`,
        datePublished: '2024-01-01',
        author: { '@type': 'Organization', name: 'Example' },
      },
    });
  }
  const nav = `<nav aria-label="Main"><a href="/">Home</a> ${Array.from({ length: categories }, (_, c) => `<a href="${cat(c)}">Category ${c}</a>`).join(' ')} <a href="/knowledge">Knowledge</a></nav>`;
  for (const p of pages) {
    const file = p.path === '/' ? join(dir, 'index.html') : join(dir, p.path, 'index.html');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, renderSynth(p, nav));
  }
  mkdirSync(join(dir, 'images', 'products'), { recursive: true });
  for (let i = 0; i < 50; i++)
    writeFileSync(join(dir, 'images', 'products', `p${i}.svg`), '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"/>');
  writeFileSync(join(dir, 'images', 'a.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'assets', 'main.css'), 'body{}');
  writeFileSync(join(dir, 'assets', 'main.js'), '');
  const chunks: string[] = [];
  for (let i = 0; i < pages.length; i += 50_000) {
    const urls = pages
      .slice(i, i + 50_000)
      .map((p, j) => `<url><loc>${ORIGIN}${p.path}</loc><lastmod>2024-0${1 + ((i + j) % 9)}-1${(i + j) % 10}</lastmod></url>`);
    const name = `sitemap-${chunks.length + 1}.xml`;
    writeFileSync(
      join(dir, name),
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
    );
    chunks.push(name);
  }
  writeFileSync(
    join(dir, 'sitemap.xml'),
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${chunks.map((c) => `<sitemap><loc>${ORIGIN}/${c}</loc></sitemap>`).join('\n')}\n</sitemapindex>\n`,
  );
  writeFileSync(join(dir, 'robots.txt'), `User-agent: *\nDisallow: /search\n\nSitemap: ${ORIGIN}/sitemap.xml\n`);
  writeFileSync(join(dir, '404.html'), '<!doctype html><title>Not found</title><h1>404</h1>');
  writeFileSync(marker, `${FORMAT}:${routes}`);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * One audit run: wall time, CPU time (user + system, all threads) and peak
 * resident memory, from GNU time. CPU time is the steadier figure when the
 * machine is shared.
 */
function auditOnce(dir: string, reports: string): { ms: number; cpuMs: number; rssMb: number; pages: number } {
  const start = process.hrtime.bigint();
  const command = ['/usr/bin/time', '-f', '%U %S %M', process.execPath, BIN, 'audit', '--dir', dir, '--reports', reports, '--fail-on', 'none'];
  if (CHRT) command.unshift('chrt', '-f', '50');
  const r = spawnSync(command[0], command.slice(1), {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${command.join(' ')} failed (${r.status}): ${r.stderr.slice(-800)}`);
  const [user, system, rssKb] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number);
  return { ms, cpuMs: (user + system) * 1000, rssMb: rssKb / 1024, pages: JSON.parse(readFileSync(join(reports, 'audit.json'), 'utf8')).summary.pages };
}

function measureAudit(label: string, dir: string, budgetMs: number, routesFrom?: string): void {
  const reports = join(tmpdir(), `site-audit-bench-reports-${process.pid}`);
  // The build's route report, as `site audit` reads it beside a real dist (legacy slugs, filled meta).
  const routes = routesFrom === undefined ? undefined : join(routesFrom, 'build-routes.json');
  if (routes && existsSync(routes)) {
    mkdirSync(reports, { recursive: true });
    copyFileSync(routes, join(reports, 'build-routes.json'));
  }
  auditOnce(dir, reports); // warm the file cache
  const runs = Array.from({ length: RUNS }, () => auditOnce(dir, reports));
  const m = median(runs.map((r) => r.ms));
  const rss = Math.max(...runs.map((r) => r.rssMb));
  const cpu = median(runs.map((r) => r.cpuMs));
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  process.stdout.write(
    `audit ${label.padEnd(24)} ${String(runs[0].pages).padStart(6)} pages  median ${(m / 1000).toFixed(2)} s wall, ${(cpu / 1000).toFixed(2)} s CPU  (runs: ${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')})  peak RSS ${rss.toFixed(0)} MB  load ${load}${CHRT ? '  chrt -f 50' : ''}  budget ${budgetMs / 1000} s: ${m <= budgetMs ? 'within' : 'OVER'}\n`,
  );
  rmSync(reports, { recursive: true, force: true });
}

/** linkinator 6 (through npx) crawling the dist served by sirv on 127.0.0.1. */
async function linkinator(label: string, dir: string): Promise<void> {
  const handler = sirv(dir, { dev: false, etag: false, extensions: ['html'] });
  const server = createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 404;
      res.end('Not found');
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const start = process.hrtime.bigint();
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn('npx', ['-y', 'linkinator@6', url, '--recurse', '--silent', '--format', 'json', '--skip', '^(?!http://127\\.0\\.0\\.1)'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      child.on('exit', resolve);
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    process.stdout.write(`linkinator ${label.padEnd(19)} ${(ms / 1000).toFixed(2)} s (one run, exit ${code}; includes npx start-up)\n`);
  } finally {
    server.close();
  }
}

/** Where npx keeps linkinator 6's bin (installing it once), so runs time the crawl and not npx. */
function linkinatorBin(): string {
  const r = spawnSync('npx', ['-y', '-p', 'linkinator@6', '-c', 'command -v linkinator'], { encoding: 'utf8' });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || bin === '') throw new Error(`cannot install linkinator@6 through npx: ${r.stderr.slice(-400)}`);
  return bin;
}

function spawnCollect(command: string, args: string[]): Promise<{ code: number | null; stdout: string; ms: number }> {
  const start = process.hrtime.bigint();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_ENV: 'production' } });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('utf8'), ms: Number(process.hrtime.bigint() - start) / 1e6 }));
  });
}

/** `site serve --dir <dir>` on a free port of 127.0.0.1; resolves once it listens. */
async function serveDist(dir: string): Promise<{ url: string; stop(): void }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const data = join(tmpdir(), `site-crawl-bench-data-${process.pid}`);
  const child = spawn(process.execPath, [BIN, 'serve', '--dir', dir, '--port', String(port), '--data-dir', data], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let err = '';
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes(`127.0.0.1:${port}`)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`site serve exited with ${code}: ${err}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => {
      child.kill('SIGTERM');
      rmSync(data, { recursive: true, force: true });
    },
  };
}

/** `site audit URL` and linkinator over the same `site serve`, alternating, medians of RUNS. */
async function measureCrawl(dir: string): Promise<void> {
  const linkinator = linkinatorBin();
  const server = await serveDist(dir);
  const reports = join(tmpdir(), `site-crawl-bench-reports-${process.pid}`);
  try {
    const sitemapUrls = new Set<string>();
    for (const m of readFileSync(join(dir, 'sitemap.xml'), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) {
      const path = new URL(m[1]).pathname;
      if (path.endsWith('.xml')) {
        for (const c of readFileSync(join(dir, path), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)) sitemapUrls.add(new URL(c[1]).pathname);
      } else sitemapUrls.add(path);
    }
    // One crawl first, untimed: the server's first reads of each file would be charged to whichever crawler came first.
    // Its URLs are what the floors fetch.
    const warm = await spawnCollect(process.execPath, [BIN, 'audit', server.url, '--json', '--fail-on', 'none', '--reports', reports]);
    const crawled = join(tmpdir(), `site-crawl-bench-urls-${process.pid}.json`);
    writeFileSync(crawled, JSON.stringify((JSON.parse(warm.stdout) as { crawl: { urls: unknown[] } }).crawl.urls));
    const ours: number[] = [];
    const theirs: number[] = [];
    const fetchFloor: number[] = [];
    const readFloor: number[] = [];
    let floorSummary = '';
    let oursSummary = '';
    let theirsSummary = '';
    for (let i = 0; i < RUNS; i++) {
      // --chrt: both crawlers at real-time priority (the server is not), so a loaded machine's queue for the cores is left out.
      const prefix = CHRT ? ['chrt', '-f', '50'] : [];
      const a = await spawnCollect(prefix[0] ?? process.execPath, [
        ...prefix.slice(1),
        ...(CHRT ? [process.execPath] : []),
        BIN,
        'audit',
        server.url,
        '--concurrency',
        '8',
        '--json',
        '--fail-on',
        'none',
        '--reports',
        reports,
      ]);
      if (a.code !== 0) throw new Error(`site audit ${server.url} exited ${a.code}`);
      ours.push(a.ms);
      const report = JSON.parse(a.stdout) as {
        summary: { pages: number };
        findings: Array<{ rule: string }>;
        crawl: { urls: Array<{ url: string; status: number | null }> };
      };
      const reached = new Set(report.crawl.urls.filter((u) => u.status === 200).map((u) => new URL(u.url).pathname));
      const missed = [...sitemapUrls].filter((p) => !reached.has(p) && !reached.has(p + '/'));
      const broken = report.findings.filter((f) =>
        ['http/client-error', 'http/server-error', 'http/unreachable', 'links/broken', 'img/broken'].includes(f.rule),
      ).length;
      oursSummary = `${report.summary.pages} pages, ${report.crawl.urls.length} URLs, ${missed.length} of ${sitemapUrls.size} sitemap URLs not reached, ${broken} broken`;

      const l = await spawnCollect(prefix[0] ?? linkinator, [
        ...prefix.slice(1),
        ...(CHRT ? [linkinator] : []),
        server.url,
        '--recurse',
        '--concurrency',
        '8',
        '--format',
        'json',
        '--skip',
        '^(?!http://127\\.0\\.0\\.1)',
      ]);
      theirs.push(l.ms);
      const links = (JSON.parse(l.stdout) as { links: Array<{ url: string; state: string }> }).links;
      const checked = new Set(links.filter((x) => x.state !== 'SKIPPED').map((x) => x.url));
      theirsSummary = `${checked.size} URLs checked, ${links.filter((x) => x.state === 'BROKEN').length} broken (exit ${l.code})`;

      // The floors (bench/crawl-floor.ts): fetching alone, timed as a whole process like the two crawls; reading alone.
      const f = await spawnCollect(process.execPath, [CRAWL_FLOOR, 'fetch', crawled, '8']);
      if (f.code !== 0) throw new Error(`crawl floor (fetch) exited ${f.code}`);
      fetchFloor.push(f.ms);
      const fetched = JSON.parse(f.stdout) as { urls: number; pages: number; bytes: number };
      const r = await spawnCollect(process.execPath, [CRAWL_FLOOR, 'read', crawled, '8']);
      if (r.code !== 0) throw new Error(`crawl floor (read) exited ${r.code}`);
      const read = JSON.parse(r.stdout) as { ms: number; pages: number };
      readFloor.push(read.ms);
      floorSummary = `${fetched.urls} URLs, ${(fetched.bytes / 1e6).toFixed(1)} MB fetched; ${read.pages} pages read`;
    }
    const [mo, mt] = [median(ours), median(theirs)];
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    process.stdout.write(
      `crawl site audit URL   ${(mo / 1000).toFixed(2)} s median (runs: ${ours.map((x) => (x / 1000).toFixed(2)).join(', ')}): ${oursSummary}\n`,
    );
    process.stdout.write(
      `crawl linkinator       ${(mt / 1000).toFixed(2)} s median (runs: ${theirs.map((x) => (x / 1000).toFixed(2)).join(', ')}): ${theirsSummary}\n`,
    );
    process.stdout.write(
      `crawl ratio ${(mo / mt).toFixed(3)} of linkinator's time (budget 0.2: ${mo <= mt / 5 ? 'within' : 'OVER'})  load ${load}${CHRT ? '  chrt -f 50' : ''}\n`,
    );
    const [ff, rf] = [median(fetchFloor), median(readFloor)];
    process.stdout.write(
      `crawl floor, fetching only   ${(ff / 1000).toFixed(2)} s median, whole process (runs: ${fetchFloor.map((x) => (x / 1000).toFixed(2)).join(', ')}): ${floorSummary}\n`,
    );
    process.stdout.write(
      `crawl floor, reading only    ${(rf / 1000).toFixed(2)} s median, scanner and page rules from memory (runs: ${readFloor.map((x) => (x / 1000).toFixed(2)).join(', ')})\n`,
    );
    process.stdout.write(
      `crawl floor, the two in turn ${((ff + rf) / 1000).toFixed(2)} s, ${((ff + rf) / mt).toFixed(3)} of linkinator's time; a fifth of it is ${(mt / 5000).toFixed(2)} s\n`,
    );
    rmSync(crawled, { force: true });
  } finally {
    server.stop();
    rmSync(reports, { recursive: true, force: true });
  }
}

export async function run(args: string[]): Promise<void> {
  // `--name=value`: bench/run.ts takes every argument without a leading dash for a section name.
  const arg = (name: string) => args.find((a) => a.startsWith(name + '='))?.slice(name.length + 1);
  const sizes = (arg('--sizes') ?? '1420,100000').split(',').filter(Boolean).map(Number);
  RUNS = Number(arg('--runs') ?? DEFAULT_RUNS);
  CHRT = args.includes('--chrt');
  BIN = arg('--bin') ?? BIN;
  if (arg('--bin')) process.stdout.write(`site CLI: ${BIN}\n`);
  const linkMax = Number(arg('--linkinator-max') ?? 2000);
  const real = arg('--dir');
  if (args.includes('--crawl')) {
    if (!real) throw new Error('--crawl needs --dir=<a built dist> to serve');
    await measureCrawl(real);
  }
  if (real) {
    measureAudit(`${real}`, real, 2000, arg('--reports') ?? 'reports');
    if (!args.includes('--no-linkinator')) await linkinator(real, real);
  }
  for (const n of sizes) {
    const dir = join(tmpdir(), `site-audit-synthetic-${n}`);
    generate(dir, n);
    measureAudit(`synthetic ${n}`, dir, n <= 1500 ? 2000 : 60_000);
    if (n <= linkMax && !args.includes('--no-linkinator')) await linkinator(`synthetic ${n}`, dir);
  }
}
