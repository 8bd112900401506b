/**
 * `site audit --lighthouse` on a two-page fixture: scores and failed audits
 * land in both reports, --budget turns low scores into errors, and a missing
 * browser is an error finding that names the fix. Spawns the compiled CLI.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture } from '../audit/helpers.js';

const FIXTURE = 'tests/fixtures/audit-lighthouse';
const temps: string[] = [];
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

function run(args: string[], env: Record<string, string> = {}) {
  const dir = copyFixture(FIXTURE);
  temps.push(dir);
  const r = spawnSync(process.execPath, ['bin/site', 'audit', '--dir', join(dir, 'site'), '--reports', join(dir, 'reports'), ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
    timeout: 240_000,
  });
  const report = JSON.parse(readFileSync(join(dir, 'reports', 'audit.json'), 'utf8'));
  const html = readFileSync(join(dir, 'reports', 'audit.html'), 'utf8');
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, report, html };
}

describe('site audit --lighthouse', () => {
  it('adds scores per category for one page per screen kind and enforces --budget', () => {
    if (!existsSync('/usr/bin/chromium')) throw new Error('Chromium is missing at /usr/bin/chromium: run `apt-get install chromium`');
    const r = run(['--lighthouse', '--budget', '100']);
    const lighthouse = r.report.lighthouse as Array<{ url: string; screen: string; scores: Record<string, number>; failed: unknown[]; error?: string }>;
    expect(lighthouse.map((p) => [p.url, p.screen])).toEqual([
      ['/', 'home'],
      ['/about', 'about'],
    ]);
    for (const page of lighthouse) {
      expect(page.error).toBeUndefined();
      expect(Object.keys(page.scores).sort()).toEqual(['accessibility', 'best-practices', 'performance', 'seo']);
      for (const score of Object.values(page.scores)) expect(score).toBeGreaterThanOrEqual(0);
      expect(page.scores.seo).toBeGreaterThanOrEqual(0.9);
    }
    const under = lighthouse.flatMap((p) =>
      Object.entries(p.scores)
        .filter(([, s]) => Math.round(s * 100) < 100)
        .map(([c]) => `${p.url} ${c}`),
    );
    const budget = r.report.findings.filter((f: { rule: string }) => f.rule === 'lighthouse/budget');
    expect(budget.map((f: { url: string; message: string }) => `${f.url} ${/Lighthouse (\S+) scored/.exec(f.message)![1]}`).sort()).toEqual(under.sort());
    expect(r.code).toBe(under.length > 0 ? 1 : 0);
    const failed = lighthouse.reduce((n, p) => n + p.failed.length, 0);
    expect(r.report.findings.filter((f: { rule: string }) => f.rule === 'lighthouse/failed-audit')).toHaveLength(failed);
    expect(r.stdout).toMatch(/\/about \(about\): performance \d+, accessibility \d+, best-practices \d+, seo \d+/);
    expect(r.html).toContain('<h2>Lighthouse</h2>');
    // Lighthouse sees the site as `site serve` serves it (compressed, with cache lifetimes): the audits about how
    // a server answers pass, where a bare static server failed them on the home page of this fixture. (Not
    // document-latency-insight: it also times the server's first answer, which the machine's load decides.)
    const ids = lighthouse.flatMap((p) => (p.failed as Array<{ id: string }>).map((f) => `${p.url} ${f.id}`));
    for (const hostAudit of ['uses-text-compression', 'uses-long-cache-ttl', 'cache-insight']) {
      expect(ids.filter((id) => id.endsWith(` ${hostAudit}`))).toEqual([]);
    }
  }, 240_000);

  it('reports a missing browser as lighthouse/error findings naming apt-get install chromium', () => {
    const r = run(['--lighthouse'], { CHROMIUM_PATH: '/nonexistent/chromium' });
    expect(r.code).toBe(1);
    const errors = r.report.findings.filter((f: { rule: string }) => f.rule === 'lighthouse/error');
    expect(errors.map((f: { url: string }) => f.url)).toEqual(['/', '/about']);
    expect(errors[0].message).toContain('apt-get install chromium');
  });
});
