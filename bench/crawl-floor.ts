/**
 * The two floors of `npm run bench -- audit --crawl`, each in a fresh
 * process as `site audit URL` is:
 *
 *   fetch  the crawl's own HTTP client (`src/audit/crawl/http.ts`) fetching
 *          every URL a crawl of the same server recorded, `--concurrency`
 *          at a time, HTML bodies kept as text, nothing read: what fetching
 *          costs with no scanner, rule or queue of ours in between;
 *   read   the HTML pages of that crawl, fetched first and untimed, then
 *          read from memory by the audit's scanner and page rules, as the
 *          crawl reads each page: what reading costs with no network.
 *
 * A crawl that reads every page it fetches pays both on the same two cores
 * the server runs on.
 *
 * Usage: node build/bench/crawl-floor.js <fetch|read> <urls.json> <concurrency>
 * urls.json: the `crawl.urls` of a `site audit URL --json` report.
 * Prints one JSON line: { ms, cpuMs, urls, pages, bytes }, `ms` and `cpuMs`
 * the fetching's or the reading's own; the bench times the fetch process
 * from spawn to exit, as it times `site audit URL`.
 */
import { readFileSync } from 'node:fs';
import { isHtml } from '../src/audit/crawl/crawler.js';
import { rebase } from '../src/audit/crawl/index.js';
import { createHttpClient } from '../src/audit/crawl/http.js';
import { makeScope, pageKey } from '../src/audit/crawl/scope.js';
import { resolveSettings } from '../src/audit/config.js';
import { checkPage } from '../src/audit/page-rules.js';
import { scanPage } from '../src/audit/scan.js';

interface CrawledUrl {
  url: string;
  status: number | null;
}

const [mode, file, concurrency] = process.argv.slice(2);
const urls = (JSON.parse(readFileSync(file, 'utf8')) as CrawledUrl[]).filter((u) => u.status !== null).map((u) => u.url);

/** Fetches every URL, `concurrency` at a time; the HTML bodies answered 200, by URL. */
async function fetchAll(): Promise<{ bodies: Map<string, string>; bytes: number }> {
  const client = createHttpClient({ sockets: Number(concurrency), timeoutMs: 30_000, userAgent: 'site-audit' });
  const bodies = new Map<string, string>();
  let next = 0;
  let bytes = 0;
  const worker = async (): Promise<void> => {
    while (next < urls.length) {
      const url = urls[next++];
      const r = await client.get(url, isHtml);
      if (!r.ok) throw new Error(`${url}: ${r.error}`);
      bytes += r.bytes;
      if (r.status === 200 && r.body !== null) bodies.set(url, r.body);
    }
  };
  await Promise.all(Array.from({ length: Number(concurrency) }, worker));
  client.close();
  return { bodies, bytes };
}

const fetchStart = performance.now();
const fetchCpu = process.cpuUsage();
const { bodies, bytes } = await fetchAll();
if (mode === 'fetch') {
  const cpu = process.cpuUsage(fetchCpu);
  print({ ms: performance.now() - fetchStart, cpuMs: (cpu.user + cpu.system) / 1000, urls: urls.length, pages: bodies.size, bytes });
} else if (mode === 'read') {
  const settings = resolveSettings({ rules: {} } as Parameters<typeof resolveSettings>[0], 'defaults');
  const origin = new URL(urls[0]).origin;
  const scope = makeScope(`${origin}/`, null);
  const start = performance.now();
  const readCpu = process.cpuUsage();
  const seen = new Set<string>();
  for (const [url, html] of bodies) {
    const key = pageKey(url);
    if (seen.has(key)) continue;
    seen.add(key);
    const facts = scanPage(html, key, url);
    rebase(facts, url, scope);
    checkPage(facts, { origin, originKnown: true, settings });
  }
  const cpu = process.cpuUsage(readCpu);
  print({ ms: performance.now() - start, cpuMs: (cpu.user + cpu.system) / 1000, urls: urls.length, pages: seen.size, bytes });
} else {
  throw new Error(`mode must be fetch or read, not ${mode}`);
}

function print(result: { ms: number; cpuMs: number; urls: number; pages: number; bytes: number }): void {
  process.stdout.write(JSON.stringify(result) + '\n');
}
