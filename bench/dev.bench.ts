/**
 * `npm run bench -- dev`: the two figures `site dev` is held to, on a copy of
 * the shipped data/ in a temporary folder.
 *
 *   ready       spawn `bin/site dev` → first 200 for an article page, with
 *               the check cache warm (a restart) and cold (a fresh cache
 *               folder, as on a fresh clone); `--runs` each (default 5).
 *   edit→DOM    Chromium (playwright-core, /usr/bin/chromium) has the article
 *               open; its JSON is rewritten with a new headline; the time from
 *               the write's return to the moment the reloaded document's
 *               parser put the headline into the DOM (a MutationObserver
 *               added before any script of the page), and to its
 *               DOMContentLoaded, both on the wall clock; `--edits` times
 *               (default 9).
 *
 * `npm run bench -- dev --runs=5 --edits=9`
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { flag, median } from './args.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin/site');
const ARTICLE = { file: 'articles/5-htp-benefits-what-research-says.json', path: '/knowledge/5-htp-benefits-what-research-says' };
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const now = (): number => performance.timeOrigin + performance.now();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const status = (url: string): Promise<number> =>
  new Promise((resolve) => {
    const req = get(url, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });

function spawnDev(data: string, port: number, cacheDir: string): ChildProcess {
  return spawn(process.execPath, [BIN, 'dev', '--data-dir', data, '--port', String(port)], {
    env: { ...process.env, NODE_ENV: 'production', SITE_CACHE_DIR: cacheDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Milliseconds from spawn to the first 200 for the article page. */
async function readyOnce(data: string, cacheDir: string): Promise<number> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}${ARTICLE.path}`;
  const started = now();
  const child = spawnDev(data, port, cacheDir);
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`site dev exited (${child.exitCode}) before answering`);
      if ((await status(url)) === 200) return now() - started;
      await new Promise((r) => setTimeout(r, 5));
    }
  } finally {
    await stop(child);
  }
}

async function editLatencies(data: string, cacheDir: string, edits: number): Promise<{ inDom: number[]; loaded: number[] }> {
  const port = await freePort();
  const child = spawnDev(data, port, cacheDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const base = `http://127.0.0.1:${port}`;
    while ((await status(`${base}/`)) !== 200) await new Promise((r) => setTimeout(r, 20));
    const page = await browser.newPage();
    // On the wall clock: when each document's parser first put a headline with text into the DOM, and when the
    // document was complete (DOMContentLoaded: its module and deferred scripts have run).
    await page.addInitScript(() => {
      const w = window as unknown as { h1At?: number; readyAt?: number };
      const stamp = () => performance.timeOrigin + performance.now();
      const seen = new MutationObserver(() => {
        if (w.h1At === undefined && document.querySelector('h1')?.textContent) {
          w.h1At = stamp();
          seen.disconnect();
        }
      });
      seen.observe(document, { childList: true, subtree: true, characterData: true });
      document.addEventListener('DOMContentLoaded', () => {
        w.readyAt = stamp();
      });
    });
    await page.goto(base + ARTICLE.path);
    const file = join(data, ARTICLE.file);
    const original = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    const inDom: number[] = [];
    const loaded: number[] = [];
    for (let i = 0; i < edits; i++) {
      await page.locator('html[data-site-dev="connected"]').waitFor();
      // Let the page's own after-load work settle, as a person reading it would.
      await new Promise((r) => setTimeout(r, 300));
      const headline = `Bench edit ${i} ${Date.now()}`;
      writeFileSync(file, `${JSON.stringify({ ...original, headline }, null, 2)}\n`);
      const saved = now();
      await page.locator('h1', { hasText: headline }).waitFor({ timeout: 20_000 });
      // Once the new document is complete (the headline's locator can match before DOMContentLoaded).
      await page.waitForFunction(() => (window as unknown as { readyAt?: number }).readyAt !== undefined);
      const at = await page.evaluate(() => {
        const w = window as unknown as { h1At: number; readyAt: number };
        return { h1At: w.h1At, readyAt: w.readyAt };
      });
      inDom.push(at.h1At - saved);
      loaded.push(at.readyAt - saved);
    }
    return { inDom, loaded };
  } finally {
    await browser.close();
    await stop(child);
  }
}

const fmt = (ms: number): string => `${Math.round(ms)} ms`;

export async function run(args: string[]): Promise<void> {
  const runs = Number(flag(args, '--runs') ?? 5);
  const edits = Number(flag(args, '--edits') ?? 9);
  const dir = mkdtempSync(join(tmpdir(), 'site-bench-dev-'));
  try {
    const data = join(dir, 'data');
    cpSync(join(ROOT, 'data'), data, { recursive: true });
    const warmCache = join(dir, 'cache');
    await readyOnce(data, warmCache); // fills the check cache, as any earlier run would have
    const warm: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      // Taking turns, so a change in the machine's load falls on both alike.
      warm.push(await readyOnce(data, warmCache));
      const fresh = join(dir, `cold-${i}`);
      cold.push(await readyOnce(data, fresh));
      rmSync(fresh, { recursive: true, force: true });
    }
    process.stdout.write(`ready (spawn → first page 200), check cache warm: median ${fmt(median(warm))} [${warm.map(fmt).join(', ')}]\n`);
    process.stdout.write(`ready (spawn → first page 200), check cache cold: median ${fmt(median(cold))} [${cold.map(fmt).join(', ')}]\n`);
    const { inDom, loaded } = await editLatencies(data, warmCache, edits);
    process.stdout.write(`article JSON saved → new headline in the DOM (Chromium): median ${fmt(median(inDom))} [${inDom.map(fmt).join(', ')}]\n`);
    process.stdout.write(`article JSON saved → that page's DOMContentLoaded: median ${fmt(median(loaded))} [${loaded.map(fmt).join(', ')}]\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
