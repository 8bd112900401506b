/**
 * The audit on the shipped catalogue, built into a temporary folder: no
 * errors, every route audited, and the catalogue's known warts explained
 * exactly where the build says they are. Spawns the compiled CLI.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface BuildRoute {
  path: string;
  metaFallback: string[];
  warnings: string[];
}

const site = (args: string[]) =>
  spawnSync(process.execPath, ['bin/site', ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, NO_COLOR: '1' } });

describe('site audit on the shipped catalogue', () => {
  let dir: string;
  let routes: BuildRoute[];
  let report: { findings: Array<{ rule: string; severity: string; url: string | null }>; pages: Array<{ url: string }> };
  let code: number | null;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'audit-shipped-'));
    const build = site(['build', '--out', join(dir, 'dist'), '--reports', join(dir, 'reports')]);
    if (build.status !== 0) throw new Error(`site build failed (${build.status}): ${build.stderr.slice(-2000)}`);
    routes = JSON.parse(readFileSync(join(dir, 'reports', 'build-routes.json'), 'utf8')).routes;
    const audit = site(['audit', '--dir', join(dir, 'dist'), '--reports', join(dir, 'reports'), '--json']);
    code = audit.status;
    report = JSON.parse(audit.stdout);
  }, 300_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds no errors and audits every route the build wrote', () => {
    expect(report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(code).toBe(0);
    expect(report.pages.map((p) => p.url).sort()).toEqual(routes.map((r) => r.path).sort());
  });

  it('explains legacy slugs where the check stage flagged them, and never as url/uppercase', () => {
    const legacy = routes.filter((r) => r.warnings.some((w) => w === 'check/path-legacy-case' || w === 'check/path-edge-hyphen')).map((r) => r.path);
    expect(legacy.length).toBeGreaterThan(0);
    const found = report.findings.filter((f) => f.rule === 'url/legacy-slug');
    expect(found.map((f) => f.url).sort()).toEqual(legacy.sort());
    expect(found.every((f) => f.severity === 'info')).toBe(true);
    expect(report.findings.filter((f) => f.rule === 'url/uppercase')).toEqual([]);
  });

  it('explains the meta the build filled in, route by route', () => {
    const filled = routes.filter((r) => r.metaFallback.length > 0).map((r) => r.path);
    expect(filled.length).toBeGreaterThan(0);
    expect(
      report.findings
        .filter((f) => f.rule === 'meta/filled-by-build')
        .map((f) => f.url)
        .sort(),
    ).toEqual(filled.sort());
  });
});
