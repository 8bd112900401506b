/**
 * `site audit` as CI runs it: exit codes per --fail-on, --json, reports,
 * usage and config errors. Spawns the compiled CLI (run `npm run compile` first).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLEAN, FAULTS, copyFixture } from '../audit/helpers.js';

function site(args: string[]) {
  const r = spawnSync(process.execPath, ['bin/site', 'audit', ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const temps: string[] = [];
/** A copy of a fixture; `run` audits it with its own reports folder. */
function fixture(from: string) {
  const dir = copyFixture(from);
  temps.push(dir);
  return { dir, run: (...args: string[]) => site(['--dir', join(dir, 'site'), '--reports', join(dir, 'reports'), ...args]) };
}
afterAll(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('site audit (CLI)', () => {
  it('exits 1 on the faults fixture, prints findings grouped by rule and writes both reports', () => {
    const { dir, run } = fixture(FAULTS);
    const r = run();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error\s+links\/broken × 1/);
    expect(r.stdout).toContain('- /faults/links-broken: The link to /faults/does-not-exist points at a missing page or file.');
    expect(r.stdout).toMatch(/\d+ pages \(\d+ indexable\) audited/);
    const json = JSON.parse(readFileSync(join(dir, 'reports', 'audit.json'), 'utf8'));
    expect(json.summary.findings.error).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'reports', 'audit.html'))).toBe(true);
  });

  it('prints the JSON report on stdout with --json', () => {
    const { dir, run } = fixture(FAULTS);
    const r = run('--json', '--fail-on', 'none');
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed).toEqual(JSON.parse(readFileSync(join(dir, 'reports', 'audit.json'), 'utf8')));
    expect(printed.findings.some((f: { rule: string }) => f.rule === 'title/missing')).toBe(true);
  });

  it('exits 0 on the clean fixture', () => {
    const r = fixture(CLEAN).run('--fail-on', 'info');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('0 errors, 0 warnings, 0 info');
  });

  it('fails only at or above --fail-on', () => {
    const warn = fixture(CLEAN);
    const sitemap = join(warn.dir, 'site', 'sitemap.xml');
    writeFileSync(sitemap, readFileSync(sitemap, 'utf8').replace(/<lastmod>[^<]*<\/lastmod>/g, '<lastmod>2024-01-01</lastmod>'));
    expect(warn.run().code).toBe(0);
    expect(warn.run('--fail-on', 'error').code).toBe(0);
    expect(warn.run('--fail-on', 'warning').code).toBe(1);

    const info = fixture(CLEAN);
    const about = join(info.dir, 'site', 'about', 'index.html');
    const changed = readFileSync(about, 'utf8').replace('</head>', '<meta name="keywords" content="">\n</head>');
    writeFileSync(about, changed);
    // Its twin too: one left as it was would be url/twin-differs, an error.
    writeFileSync(join(info.dir, 'site', 'about.html'), changed);
    expect(info.run('--fail-on', 'warning').code).toBe(0);
    expect(info.run('--fail-on', 'info').code).toBe(1);
    expect(info.run('--fail-on', 'none').code).toBe(0);
  });

  it('exits 2 on usage and configuration errors', () => {
    const missing = site(['--dir', 'no/such/dist']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no built site at no/such/dist');
    expect(site(['--dir', join(CLEAN, 'site'), '--fail-on', 'fatal']).code).toBe(2);

    const { dir, run } = fixture(CLEAN);
    const config = join(dir, 'audit.json');
    writeFileSync(config, JSON.stringify({ audit: { rules: { 'title/too-lng': 'off' } } }));
    const bad = run('--config', config);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(`${config}: /audit/rules/title~1too-lng: unknown rule "title/too-lng"`);
  });

  it('takes the folder to audit as its argument, as --dir, and names both readings of a target that is neither', () => {
    const { dir } = fixture(FAULTS);
    const byFlag = site(['--dir', join(dir, 'site'), '--reports', join(dir, 'by-flag'), '--json', '--fail-on', 'none']);
    const byArgument = site([join(dir, 'site'), '--reports', join(dir, 'by-argument'), '--json', '--fail-on', 'none']);
    expect(byArgument.code).toBe(0);
    expect(JSON.parse(byArgument.stdout).findings).toEqual(JSON.parse(byFlag.stdout).findings);
    expect(JSON.parse(byArgument.stdout).findings.length).toBeGreaterThan(0);

    const neither = site(['www.example.com/docs']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain(
      'site audit "www.example.com/docs": expected a folder of HTML files or an absolute http(s) URL (say https://www.example.com/docs)',
    );
    const twice = site([join(dir, 'site'), '--dir', join(CLEAN, 'site')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('a folder to audit is given twice');
  });

  it('writes the formats asked for, and the HTML report names the files it wrote', () => {
    const { dir, run } = fixture(FAULTS);
    const reports = join(dir, 'elsewhere');
    const r = site(['--dir', join(dir, 'site'), '--reports', reports, '--format', 'html,csv', '--fail-on', 'none']);
    expect(r.code).toBe(0);
    expect(existsSync(join(reports, 'audit.json'))).toBe(false);
    const findings = readFileSync(join(reports, 'audit-findings.csv'), 'utf8').trimEnd().split('\r\n');
    expect(findings[0]).toBe('severity,rule,url,file,line,message');
    // Worst first.
    expect(findings[1].startsWith('error,')).toBe(true);
    expect(findings.at(-1)!.startsWith('error,')).toBe(false);
    expect(readFileSync(join(reports, 'audit-pages.csv'), 'utf8')).toContain('/faults/links-broken,');
    const html = readFileSync(join(reports, 'audit.html'), 'utf8');
    expect(html).toContain('<a href="audit-findings.csv">audit-findings.csv</a>');
    expect(html).not.toContain('audit.json');
    expect(r.stderr).toContain(join(reports, 'audit-pages.csv'));
    expect(run('--format', 'pdf').code).toBe(2);
  });

  it("takes --exclude and the config's exclude, and an --origin with a path", () => {
    const { dir, run } = fixture(FAULTS);
    const pages = (r: { stdout: string }) => JSON.parse(r.stdout).pages.map((p: { url: string }) => p.url) as string[];
    const all = pages(run('--json', '--fail-on', 'none'));
    expect(all).toContain('/faults/title-missing');
    const excluded = pages(run('--json', '--fail-on', 'none', '--exclude', 'faults/title-*/index.html'));
    expect(excluded.filter((u) => u.startsWith('/faults/title-'))).toEqual([]);
    expect(excluded.length).toBeLessThan(all.length);
    const config = join(dir, 'audit.json');
    writeFileSync(config, JSON.stringify({ audit: { exclude: ['knowledge/'] } }));
    expect(pages(run('--json', '--fail-on', 'none', '--config', config)).filter((u) => u.startsWith('/knowledge'))).toEqual([]);
    const based = JSON.parse(run('--json', '--fail-on', 'none', '--origin', 'https://example.com/shop/').stdout);
    expect([based.origin, based.basePath]).toEqual(['https://example.com', '/shop/']);
    expect(based.pages.every((p: { url: string }) => p.url.startsWith('/shop'))).toBe(true);
  });

  it('applies a config file: rules off and thresholds', () => {
    const { dir, run } = fixture(FAULTS);
    const config = join(dir, 'audit.json');
    writeFileSync(config, JSON.stringify({ audit: { rules: { 'links/broken': 'off', 'title/too-long': { max: 100 } } } }));
    const r = run('--config', config, '--json', '--fail-on', 'none');
    const rules = new Set(JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule));
    expect(rules.has('links/broken')).toBe(false);
    expect(rules.has('title/too-long')).toBe(false);
    expect(rules.has('title/missing')).toBe(true);
  });
});
