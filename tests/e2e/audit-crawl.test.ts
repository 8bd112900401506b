/**
 * `site audit URL` through the compiled CLI (run `npm run compile` first)
 * against real servers on 127.0.0.1: `site serve`, Python's http.server and
 * nginx, each serving tests/fixtures/audit-crawl, whose pages and server
 * settings plant one fault per URL. Every server is stopped at the end.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLEAN } from '../audit/helpers.js';
import { nginx, pythonServer, siteServe, type RunningServer } from './crawl-servers.js';

const SITE = 'tests/fixtures/audit-crawl/site';
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Finding {
  rule: string;
  url: string | null;
  file: string;
  message: string;
}

/** Runs the CLI without blocking this process (the servers under test may live in it). */
function audit(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; reports: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'crawl-reports-'));
  temps.push(reports);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['bin/site', 'audit', '--reports', reports, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => void (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, reports }));
  });
}

async function findings(
  url: string,
  ...args: string[]
): Promise<{ code: number | null; json: { findings: Finding[]; crawl: { urls: Array<{ url: string; status: number | null }> } } }> {
  const r = await audit(url, '--json', ...args);
  if (r.stdout === '') throw new Error(`site audit ${url} printed nothing: ${r.stderr}`);
  return { code: r.code, json: JSON.parse(r.stdout) };
}

const byRule = (list: Finding[], rule: string) => list.filter((f) => f.rule === rule);

describe('site audit URL on site serve', () => {
  let server: RunningServer;
  let clean: RunningServer;
  beforeAll(async () => {
    [server, clean] = await Promise.all([siteServe(SITE), siteServe(join(CLEAN, 'site'))]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), clean?.stop()]);
  });

  it('exits 0 on a clean site, with the crawl in the JSON report', async () => {
    const r = await audit(clean.url, '--fail-on', 'info');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/7 pages \(7 indexable\) audited in http:\/\/127\.0\.0\.1:\d+\/: 0 errors, 0 warnings, 0 info/);
    const report = JSON.parse(readFileSync(join(r.reports, 'audit.json'), 'utf8'));
    expect(report.crawl.robotsObeyed).toBe(true);
    expect(report.crawl.notFound.status).toBe(404);
    expect(report.crawl.urls.every((u: { status: number }) => u.status === 200)).toBe(true);
    expect(report.crawl.urls.find((u: { url: string }) => u.url === clean.url).headers['x-content-type-options']).toBe('nosniff');
  });

  it('exits 1 on the faults and prints them with --json; 0 with --fail-on none', async () => {
    const { code, json } = await findings(server.url);
    expect(code).toBe(1);
    expect(byRule(json.findings, 'http/client-error').map((f) => f.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\/missing\.js answered 404; linked from \/\.$/)]),
    );
    // The disk audit's page rules run on what the crawl read: the fixture's home has an iframe but is otherwise clean.
    expect(json.findings.some((f) => f.rule.startsWith('title/'))).toBe(false);
    expect((await audit(server.url, '--fail-on', 'none')).code).toBe(0);
  });

  it('exits 2 on a URL it cannot crawl', async () => {
    const bad = await audit('ftp://127.0.0.1/');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('site audit URL "ftp://127.0.0.1/": expected an absolute http(s) URL');
    const stopped = await siteServe(SITE);
    await stopped.stop();
    const refused = await audit(stopped.url);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`nothing answers at ${stopped.url}: ECONNREFUSED`);
    const flags = await audit(server.url, '--concurrency', '0');
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--concurrency "0": expected a whole number from 1 to 256');
  });
});

describe("site audit URL on Python's http.server", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await pythonServer(SITE);
  });
  afterAll(() => server?.stop());

  it('finds the missing script, the trailing-slash redirect and the canonical that redirects; obeys robots.txt', async () => {
    const { code, json } = await findings(server.url);
    expect(code).toBe(1);
    const messages = (rule: string) => byRule(json.findings, rule).map((f) => f.message);
    expect(messages('http/client-error')).toEqual(expect.arrayContaining([expect.stringMatching(/\/missing\.js answered 404/)]));
    expect(messages('http/trailing-slash-redirect')).toEqual([
      expect.stringMatching(/\/docs redirects to \/docs\/, which differs only in its trailing slash; linked from \//),
    ]);
    expect(byRule(json.findings, 'http/canonical-redirects').map((f) => f.url)).toEqual(['/docs']);
    // Python answers unknown URLs 404: neither not-found rule fires.
    expect(byRule(json.findings, 'http/soft-404')).toEqual([]);
    expect(byRule(json.findings, 'http/not-found-status')).toEqual([]);
    expect(json.crawl.urls.find((u) => u.url.endsWith('/private.html'))).toMatchObject({ status: null });
    // The sitemap's www.example.org URLs were crawled on the served origin.
    expect(json.crawl.urls.find((u) => u.url === `${server.url}docs/intro.html`)).toMatchObject({ status: 200 });
  });
});

describe('site audit URL on nginx', () => {
  let servers: { urls: string[]; stop(): Promise<void> };
  const faults = `
    location = /moved { return 302 /target.html; }
    location = /loop-a { return 301 /loop-b; }
    location = /loop-b { return 301 /loop-a; }
    rewrite ^/chain-1$ /chain-2 permanent;
    rewrite ^/chain-2$ /chain-3 permanent;
    rewrite ^/chain-3$ /target.html permanent;
    location = /canon-old { return 301 /target.html; }
    location = /error { return 500; }
    location = /noindex.html { add_header X-Robots-Tag "noindex" always; }`;
  beforeAll(async () => {
    servers = await nginx([
      { root: SITE, directives: `${faults}\n    error_page 404 /404.html;` },
      // Every unknown URL answered with the home page: a soft 404.
      { root: SITE, directives: '    location / { try_files $uri $uri/ /index.html; }' },
      // The not-found page answered 200.
      { root: SITE, directives: '    error_page 404 =200 /404.html;' },
    ]);
  });
  afterAll(() => servers?.stop());

  it('finds every planted fault', async () => {
    const { code, json } = await findings(servers.urls[0]);
    expect(code).toBe(1);
    const messages = (rule: string) => byRule(json.findings, rule).map((f) => f.message);
    const origin = servers.urls[0].slice(0, -1);
    expect(messages('http/temporary-redirect')).toEqual([`${origin}/moved redirects with 302 (temporary) to /target.html; linked from /.`]);
    expect(messages('http/redirect-loop')).toEqual([expect.stringContaining(`${origin}/loop-a redirects in a loop`)]);
    expect(messages('http/redirect-chain')).toEqual([expect.stringContaining(`${origin}/chain-1 takes 3 redirects`)]);
    expect(byRule(json.findings, 'http/noindex-header').map((f) => f.url)).toEqual(['/noindex.html']);
    expect(byRule(json.findings, 'sitemap/non-indexable-url').map((f) => f.url)).toEqual(['/noindex.html']);
    expect(
      byRule(json.findings, 'http/canonical-redirects')
        .map((f) => f.url)
        .sort(),
    ).toEqual(['/canon-source.html', '/docs']);
    expect(messages('http/server-error')).toEqual([`${origin}/error answered 500; linked from /.`]);
    expect(messages('http/client-error')).toEqual([`${origin}/missing.js answered 404; linked from /.`]);
    expect(messages('http/trailing-slash-redirect')).toHaveLength(1);
    expect(byRule(json.findings, 'http/soft-404')).toEqual([]);
    expect(byRule(json.findings, 'http/not-found-status')).toEqual([]);
  });

  it('finds the soft 404 and the not-found page answered 200', async () => {
    const soft = await findings(servers.urls[1], '--fail-on', 'none');
    expect(byRule(soft.json.findings, 'http/soft-404').map((f) => f.message)).toEqual([
      expect.stringContaining('a made-up URL, answered 200 with a page ("Crawl fixture home - crawl fault fixture site")'),
    ]);
    const status = await findings(servers.urls[2], '--fail-on', 'none');
    expect(byRule(status.json.findings, 'http/not-found-status').map((f) => f.message)).toEqual([
      expect.stringContaining('answered 200 with a not-found page instead of 404'),
    ]);
  });
});
