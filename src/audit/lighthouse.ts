/**
 * `--lighthouse`: serves the dist on 127.0.0.1, launches Debian's Chromium
 * with a throw-away profile, and runs Lighthouse on one page per screen kind
 * (plus the pages with the most findings), one after another: Lighthouse
 * needs the browser to itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditReport, LighthousePage } from './index.js';
import { findingEmitter } from './page-rules.js';
import type { Finding, RuleSettings } from './types.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const IGNORED_MODES = new Set(['notApplicable', 'informative', 'manual', 'error']);

export interface LighthouseOptions {
  dir: string;
  report: AuditReport;
  extraPages: number;
  budget?: number;
  settings: RuleSettings;
  log: (line: string) => void;
  /**
   * Serves `dir` on 127.0.0.1 as the site will be served (compression, cache
   * lifetimes, security headers), so the scores measure the site rather than
   * a bare test server; anything it stores goes in `scratch`. The CLI passes
   * `site serve`'s server: the audit stage does not import the serve stage.
   */
  serve: (dir: string, scratch: string) => Promise<{ close(): Promise<void>; base: string }>;
}

/** One page per screen kind (the shortest URL of each), then the pages with the most findings. */
export function samplePages(report: AuditReport, extra: number): Array<{ url: string; screen: string | null }> {
  const byScreen = new Map<string, { url: string; screen: string | null }>();
  const rows = [...report.pages].sort((a, b) => a.url.length - b.url.length || a.url.localeCompare(b.url));
  for (const row of rows) if (!byScreen.has(row.screen ?? 'unknown')) byScreen.set(row.screen ?? 'unknown', row);
  const chosen = [...byScreen.values()];
  const taken = new Set(chosen.map((c) => c.url));
  const worst = [...report.pages].sort((a, b) => b.issues - a.issues || a.url.localeCompare(b.url));
  for (const row of worst) {
    if (chosen.length >= byScreen.size + extra) break;
    if (!taken.has(row.url)) {
      chosen.push(row);
      taken.add(row.url);
    }
  }
  return chosen.map(({ url, screen }) => ({ url, screen }));
}

/** Starts Chromium on a free debugging port and resolves with that port. */
export async function launchChromium(profile: string): Promise<{ child: ChildProcess; port: number }> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run \`apt-get install chromium\``);
  const child = spawn(CHROMIUM, [...CHROMIUM_ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error('Chromium did not open its debugging port within 30 s')), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const m = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(buffer);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (code ${code}) before opening its debugging port: ${buffer.slice(-500)}`));
    });
  });
  return { child, port };
}

/**
 * Lighthouse's own failures that say nothing of the page: the trace lost the navigation's start, or the browser
 * did not answer in time (a busy machine). A page that fails with one is audited once more before it is reported.
 */
const TRANSIENT = new Set(['NO_NAVSTART', 'NO_TRACING_STARTED', 'PROTOCOL_TIMEOUT']);

/**
 * One Lighthouse result for a page: `run` again once when the first ended in a transient runtime error
 * (TRANSIENT), so that a hiccup of the browser is not reported as the page's fault.
 */
export async function resultWithRetry<R extends { runtimeError?: { code: string; message: string } }>(
  run: () => Promise<R | undefined>,
  onRetry: (code: string) => void,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    const result = await run();
    if (!result) throw new Error('Lighthouse returned no result');
    const error = result.runtimeError;
    if (error === undefined) return result;
    if (attempt === 1 && TRANSIENT.has(error.code)) {
      onRetry(error.code);
      continue;
    }
    throw new Error(`${error.code}: ${error.message}`);
  }
}

interface Lhr {
  categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
  audits: Record<string, { id: string; title: string; score: number | null; scoreDisplayMode: string }>;
  runtimeError?: { code: string; message: string };
}

export async function runLighthouse(opts: LighthouseOptions): Promise<{ pages: LighthousePage[]; findings: Finding[] }> {
  const { default: lighthouse } = (await import('lighthouse')) as unknown as {
    default: (url: string, flags: object) => Promise<{ lhr: Lhr } | undefined>;
  };
  const sample = samplePages(opts.report, opts.extraPages);
  const scratch = await mkdtemp(join(tmpdir(), 'site-audit-lighthouse-'));
  const profile = join(scratch, 'chromium');
  const { close, base } = await opts.serve(opts.dir, scratch);
  let chromium: ChildProcess | undefined;
  const pages: LighthousePage[] = [];
  const findings: Finding[] = [];
  const emitFor = (url: string) => findingEmitter(opts.settings, findings, url, opts.report.pages.find((p) => p.url === url)!.file);
  try {
    let launched: Awaited<ReturnType<typeof launchChromium>>;
    try {
      launched = await launchChromium(profile);
    } catch (err) {
      // Without a browser every sampled page is an error finding; the rest of the audit still counts.
      const message = (err as Error).message;
      for (const page of sample) {
        emitFor(page.url)('lighthouse/error', `Lighthouse could not audit ${page.url}: ${message}`);
        pages.push({ url: page.url, screen: page.screen, scores: {}, failed: [], error: message });
      }
      return { pages, findings };
    }
    chromium = launched.child;
    for (const page of sample) {
      const emit = emitFor(page.url);
      opts.log(`site audit: lighthouse ${page.url}`);
      try {
        const lhr = await resultWithRetry(
          async () =>
            (await lighthouse(base + encodeURI(page.url), { port: launched.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES }))?.lhr,
          (code) => opts.log(`site audit: lighthouse ${page.url} again, after ${code}`),
        );
        const scores: Record<string, number | null> = {};
        const failed: LighthousePage['failed'] = [];
        for (const id of CATEGORIES) {
          const category = lhr.categories[id];
          scores[id] = category?.score ?? null;
          for (const ref of category?.auditRefs ?? []) {
            const audit = lhr.audits[ref.id];
            if (!audit || IGNORED_MODES.has(audit.scoreDisplayMode) || audit.score === null || audit.score >= 0.9) continue;
            failed.push({ id: audit.id, title: audit.title, category: id });
            emit('lighthouse/failed-audit', `Lighthouse ${id} audit "${audit.title}" (${audit.id}) failed.`);
          }
          const score = scores[id];
          if (opts.budget !== undefined && score !== null && Math.round(score * 100) < opts.budget) {
            emit('lighthouse/budget', `Lighthouse ${id} scored ${Math.round(score * 100)}, under the budget of ${opts.budget}.`);
          }
        }
        pages.push({ url: page.url, screen: page.screen, scores, failed });
      } catch (err) {
        const message = (err as Error).message;
        emit('lighthouse/error', `Lighthouse could not audit ${page.url}: ${message}`);
        pages.push({ url: page.url, screen: page.screen, scores: {}, failed: [], error: message });
      }
    }
  } finally {
    chromium?.kill('SIGTERM');
    if (chromium && chromium.exitCode === null) await new Promise((resolve) => chromium!.once('exit', resolve));
    await close();
    await rm(scratch, { recursive: true, force: true });
  }
  return { pages, findings };
}
