/**
 * What the end-to-end tests stand on: a real site built by `bin/site build`,
 * served from 127.0.0.1 by a tiny static server with a stub inquiry endpoint
 * that records what it received, and Debian's Chromium driven by
 * playwright-core.
 *
 * Environment:
 *   SITE_E2E_DATA  catalogue to build (default `data`).
 *   SITE_E2E_DIST  use this already built dist/ (with ../reports beside it) instead of building.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { inquirySchema } from '../../src/core/inquiry.js';
import { requireFreshBuild } from '../compiled.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Fails (never skips) when Chromium is missing: the suite is part of `npm test`. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is missing at ${CHROMIUM}; the end-to-end tests need it: apt-get install chromium`);
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface BuiltRoute {
  path: string;
  screen: string;
}

export interface BuiltSite {
  dist: string;
  routes: BuiltRoute[];
  /** Removes what buildSite created (nothing for SITE_E2E_DIST). */
  cleanup(): Promise<void>;
}

/** Builds the catalogue with the compiled CLI into a temporary folder. */
export async function buildSite(): Promise<BuiltSite> {
  const given = process.env.SITE_E2E_DIST;
  if (given) return { dist: path.resolve(given), routes: await readRoutes(path.join(path.resolve(given), '..', 'reports')), cleanup: async () => undefined };
  requireFreshBuild();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'site-e2e-'));
  const dist = path.join(dir, 'dist');
  const reports = path.join(dir, 'reports');
  const data = process.env.SITE_E2E_DATA ?? 'data';
  const run = spawnSync(process.execPath, [path.join(ROOT, 'bin/site'), 'build', '--data-dir', data, '--out', dist, '--reports', reports], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1' },
    timeout: 300_000,
  });
  if (run.status !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`bin/site build --data-dir ${data} failed (exit ${run.status}):\n${(run.stderr || run.stdout).slice(-4000)}`);
  }
  return { dist, routes: await readRoutes(reports), cleanup: () => rm(dir, { recursive: true, force: true }) };
}

async function readRoutes(reports: string): Promise<BuiltRoute[]> {
  const file = path.join(reports, 'build-routes.json');
  const json = JSON.parse(await readFile(file, 'utf8')) as { routes: BuiltRoute[] };
  return json.routes;
}

/** The first built route of a screen kind; fails with a clear message when the catalogue has none. */
export function routeOf(site: BuiltSite, screen: string, where: (r: BuiltRoute) => boolean = () => true): string {
  const route = site.routes.find((r) => r.screen === screen && where(r));
  if (!route) throw new Error(`the built site has no ${screen} route (reports/build-routes.json)`);
  return route.path;
}

// ---------------------------------------------------------------- server

export interface RecordedInquiry {
  path: string;
  contentType: string;
  accept: string;
  body: string;
  json: Record<string, unknown> | null;
}

export interface TestServer {
  origin: string;
  inquiries: RecordedInquiry[];
  /** Overrides the endpoint's next answers (e.g. a server-side refusal). */
  answer: ((inquiry: RecordedInquiry) => { status: number; json: unknown } | null) | null;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
};

async function fileFor(dist: string, pathname: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const target = path.resolve(dist, '.' + decoded);
  if (target !== dist && !target.startsWith(dist + path.sep)) return null;
  for (const candidate of [target, path.join(target, 'index.html')]) {
    const s = await stat(candidate).catch(() => null);
    if (s?.isFile()) return candidate;
  }
  return null;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The stub endpoint answers like `site serve`: 201, or 400 with `{errors: {field: message}}`. */
function stubAnswer(inquiry: RecordedInquiry): { status: number; json: unknown } {
  const result = inquirySchema.safeParse(inquiry.json ?? {});
  if (result.success) return { status: 201, json: { ok: true } };
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { status: 400, json: { errors } };
}

/**
 * Static files from `dist` the way a plain host serves them (`/x` → `x/index.html`,
 * unknown → `404.html` with status 404), `?delay=ms` to make a page slow, and
 * POST /api/* as the inquiry endpoint.
 */
export async function startServer(dist: string): Promise<TestServer> {
  const inquiries: RecordedInquiry[] = [];
  const state: TestServer = { origin: '', inquiries, answer: null, close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'POST' && url.pathname.startsWith('/api/')) {
      const body = await readBody(req);
      const contentType = String(req.headers['content-type'] ?? '');
      let json: Record<string, unknown> | null = null;
      if (contentType.includes('application/json')) {
        try {
          json = JSON.parse(body) as Record<string, unknown>;
        } catch {
          json = null;
        }
      } else if (contentType.includes('application/x-www-form-urlencoded')) {
        json = Object.fromEntries(new URLSearchParams(body));
      }
      const inquiry: RecordedInquiry = { path: url.pathname, contentType, accept: String(req.headers.accept ?? ''), body, json };
      inquiries.push(inquiry);
      const answer = state.answer?.(inquiry) ?? stubAnswer(inquiry);
      if (!contentType.includes('application/json') && answer.status === 201) {
        // A plain form post (no JavaScript): redirect like a real endpoint.
        res.writeHead(303, { location: '/thanks' }).end();
        return;
      }
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405).end();
      return;
    }
    const delay = Number(url.searchParams.get('delay') ?? 0);
    if (delay > 0) await new Promise((r) => setTimeout(r, Math.min(delay, 10_000)));
    const file = await fileFor(dist, url.pathname);
    const status = file ? 200 : 404;
    const served = file ?? path.join(dist, '404.html');
    const body = await readFile(served).catch(() => Buffer.from('not found'));
    res.writeHead(status, { 'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
