/**
 * `site check` as a process: exit codes, stdout and stderr, on the shipped
 * catalogue and on broken copies. Needs the compiled CLI (`npm run compile`).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyEdits, readJson } from '../check/fixture.js';
import { requireFreshBuild } from '../compiled.js';
import { PARTS_FOLDER } from '../../src/load/cache.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/site');
const SHIPPED = join(ROOT, 'data');

beforeAll(() => {
  requireFreshBuild();
});

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function site(args: string[], env: Record<string, string> = {}): Run {
  // A clean environment: CI and GITHUB_ACTIONS of the machine running the tests must not leak in.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'GITHUB_ACTIONS' && k !== 'CI' && k !== 'NO_COLOR'));
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...base, ...env }, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface JsonReport {
  diagnostics: Array<{ code: string; severity: string; file: string; pointer: string; line: number; column: number; message: string }>;
  counts: { routes: Record<string, number>; totals: Record<string, number>; diagnostics: Record<string, number> };
}

/** The spec's warts: the only warnings the shipped catalogue may have. */
const WART_CODES = new Set(['check/path-legacy-case', 'check/path-edge-hyphen', 'check/duplicate-route', 'check/nodeid-not-hex', 'check/empty-meta']);

describe('site check on the shipped catalogue', () => {
  it("passes with exit 0; its warnings are exactly the spec's warts", () => {
    expect(existsSync(join(SHIPPED, 'routes.json')), 'data/ (the shipped catalogue) is missing').toBe(true);
    const r = site(['check', '--json']);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout) as JsonReport;
    expect(doc.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(r.status).toBe(0);
    expect(doc.diagnostics.filter((d) => !WART_CODES.has(d.code))).toEqual([]);

    const at = (code: string) => doc.diagnostics.filter((d) => d.code === code).map((d) => d.message);
    // wheat-protein-powder once, and each of the 8 organic mushroom routes, are declared twice.
    const repeated = at('check/duplicate-route');
    expect(repeated.filter((m) => m.includes('/wheat-protein-powder'))).toHaveLength(1);
    expect(repeated.filter((m) => m.includes('/organic-mushroom-extract/'))).toHaveLength(8);
    expect(repeated).toHaveLength(9);
    // The one legacy name as node id.
    expect(at('check/nodeid-not-hex')).toEqual([expect.stringContaining('/products/cordyceps-extract-powder')]);
    // Newer products (many standardized extracts) have empty meta.
    const emptyMeta = at('check/empty-meta');
    expect(emptyMeta.filter((m) => m.includes('/standardized-herbal-extract/')).length).toBeGreaterThan(0);
    for (const m of emptyMeta) expect(m).toContain('has an empty meta title, description and keywords');
    // Some article slugs keep capitals or edge hyphens.
    expect(at('check/path-legacy-case').length).toBeGreaterThan(0);
    expect(at('check/path-edge-hyphen').length).toBeGreaterThan(0);
    for (const d of doc.diagnostics) {
      expect(d.file.startsWith('data/')).toBe(true);
      expect(d.line).toBeGreaterThan(0);
      expect(d.column).toBeGreaterThan(0);
    }

    // The spec's page counts (section 2): /products 1..24, /knowledge 1..72, news page 1.
    expect(doc.counts.routes.products).toBe(25);
    expect(doc.counts.routes.knowledge).toBe(73);
    expect(doc.counts.routes.news).toBe(2);
    expect(doc.counts.routes['news-detail']).toBe(7);
    expect(doc.counts.totals.categories).toBe(19);
    expect(doc.counts.totals.declarations - doc.counts.totals.routes).toBe(9);
  });

  it('prints a text report ending in a verdict, and fails under --strict', () => {
    const text = site(['check']);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/Routes by screen kind\n/);
    expect(text.stdout.trimEnd().split('\n').at(-1)).toMatch(/^✔ The catalogue is consistent: 0 errors, \d+ warnings\.$/);
    expect(text.stdout).not.toContain('\u001b[');

    const strict = site(['check', '--strict', '--json']);
    expect(strict.status).toBe(1);
    const doc = JSON.parse(strict.stdout) as JsonReport;
    expect(doc.counts.diagnostics.warning).toBe(0);
    expect(doc.counts.diagnostics.error).toBeGreaterThan(0);
  });
});

describe('site check on a broken copy', () => {
  let dir: string;
  let data: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'site-cli-check-'));
    data = join(dir, 'data');
    cpSync(SHIPPED, data, { recursive: true });
    const routes = readJson(join(data, 'routes.json')) as Array<{ path: string; screen: string; grandId?: string; page?: number }>;
    const product = routes.find((r) => r.screen === 'product')!;
    const lastPage = routes.filter((r) => r.screen === 'category' && r.page !== undefined).at(-1)!;
    applyEdits(data, [
      { op: 'patch-route', path: product.path, set: { grandId: '0123456789abcdef0123456789abcdef' } },
      { op: 'remove-route', path: lastPage.path },
    ]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 and names the faults in the --json document', () => {
    const r = site(['check', '--json', '--data-dir', data]);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonReport;
    const errors = doc.diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => d.code).sort()).toEqual(['check/grandid-mismatch', 'check/missing-page']);
    const grand = errors.find((d) => d.code === 'check/grandid-mismatch')!;
    expect(grand.file).toBe(`${data}/routes.json`);
    expect(grand.pointer).toMatch(/^\/\d+\/grandId$/);
    expect(grand.line).toBeGreaterThan(1);
    expect(doc.counts.diagnostics.error).toBe(2);
  });

  it('prints GitHub annotations under GITHUB_ACTIONS=true, but never into --json', () => {
    const text = site(['check', '--data-dir', data], { GITHUB_ACTIONS: 'true' });
    expect(text.status).toBe(1);
    expect(text.stdout).toMatch(/^::error file=[^\n]*routes\.json,line=\d+,col=\d+,title=check\/grandid-mismatch::Product route /m);
    const json = site(['check', '--json', '--data-dir', data], { GITHUB_ACTIONS: 'true' });
    expect(() => JSON.parse(json.stdout)).not.toThrow();
    expect(json.stdout).not.toContain('::error');
  });

  it('reports bad JSON with its position and exits 1', () => {
    const broken = join(dir, 'broken');
    cpSync(data, broken, { recursive: true });
    writeFileSync(join(broken, 'site.json'), '{\n  "brand": "x"\n  "origin": "https://www.example.com"\n}\n');
    const r = site(['check', '--data-dir', broken]);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(`${broken}/site.json:3:3  error  load/invalid-json  Not valid JSON: a comma between items was expected`);
  });
});

describe('site check on bytes, links and sizes it must not publish', () => {
  it('exits 1, naming the file and, for a byte that is not UTF-8, its line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-cli-faults-'));
    const data = join(dir, 'data');
    cpSync(join(ROOT, 'tests/fixtures/check-base/data'), data, { recursive: true });
    writeFileSync(
      join(data, 'news/expo-2024.json'),
      Buffer.concat([readFileSync(join(data, 'news/expo-2024.json')).subarray(0, 20), Buffer.from([0xff]), Buffer.from('"}')]),
    );
    writeFileSync(join(dir, 'outside.json'), readFileSync(join(data, 'products/ginger-extract.json')));
    symlinkSync(join(dir, 'outside.json'), join(data, 'products/outside.json'));
    writeFileSync(join(data, 'products/ginger-extract.json'), readFileSync(join(data, 'products/ginger-extract.json'), 'utf8') + ' '.repeat(5 * 1024 * 1024));
    const r = site(['check', '--json', '--data-dir', data]);
    rmSync(dir, { recursive: true, force: true });
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonReport;
    expect(doc.diagnostics.map((d) => [d.code, d.file.slice(data.length + 1)])).toEqual(
      [
        ['load/invalid-utf8', 'news/expo-2024.json'],
        ['load/link-outside-data', 'products/outside.json'],
        ['load/file-too-large', 'products/ginger-extract.json'],
      ].sort((a, b) => (a[1] < b[1] ? -1 : 1)),
    );
    const utf8 = doc.diagnostics.find((d) => d.code === 'load/invalid-utf8')!;
    const before = readFileSync(join(ROOT, 'tests/fixtures/check-base/data/news/expo-2024.json'), 'utf8').slice(0, 20).split('\n');
    expect([utf8.line, utf8.column]).toEqual([before.length, before.at(-1)!.length + 1]);
  });
});

describe('site check usage', () => {
  it('exits 2 when the data dir is missing, with the reason on stderr', () => {
    const r = site(['check', '--data-dir', 'no-such-dir']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('the data directory "no-such-dir" does not exist');
  });

  it('exits 2 on an unknown flag', () => {
    expect(site(['check', '--no-such-flag']).status).toBe(2);
  });

  it('lists check in --help', () => {
    const r = site(['--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^\s+check\b/m);
  });
});

describe('site check cache', () => {
  const made: string[] = [];
  afterAll(() => {
    for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  const tempDir = () => {
    const d = mkdtempSync(join(tmpdir(), 'site-cli-cache-'));
    made.push(d);
    return d;
  };

  it('prints the same report from a --cache-dir entry as from scratch, and a new one when a file changes', () => {
    const root = tempDir();
    const data = join(root, 'data');
    cpSync(join(ROOT, 'tests/fixtures/check-base/data'), data, { recursive: true });
    const cache = join(root, 'cache');
    const fresh = site(['check', '--json', '--data-dir', data, '--no-cache']);
    expect(fresh.status).toBe(0);
    const miss = site(['check', '--json', '--data-dir', data, '--cache-dir', cache]);
    // One entry, and the folder of its parts.
    expect(readdirSync(cache).sort()).toEqual([expect.stringMatching(/^check-[0-9a-f]{16}\.bin$/), PARTS_FOLDER]);
    const hit = site(['check', '--json', '--data-dir', data, '--cache-dir', cache]);
    // The same report; only how many files were validated again, or taken from the cache, differs.
    type Files = { validated: number; reused: number; read: number };
    const report = (r: typeof fresh) => {
      const { files, ...rest } = JSON.parse(r.stdout) as { files: Files };
      return { status: r.status, stderr: r.stderr, report: rest, files };
    };
    expect(report(miss).report).toEqual(report(fresh).report);
    expect(report(hit).report).toEqual(report(fresh).report);
    expect(report(miss).status).toBe(fresh.status);
    const all = report(fresh).files.validated;
    expect(all).toBeGreaterThan(10);
    expect(report(hit).files).toMatchObject({ validated: 0, reused: all });

    const site_ = join(data, 'site.json');
    writeFileSync(site_, readFileSync(site_, 'utf8').replace(/\n\}\s*$/, ',\n  "colour": "green"\n}\n'));
    const changed = site(['check', '--json', '--data-dir', data, '--cache-dir', cache]);
    expect(changed.status).toBe(1);
    expect(report(changed).report).toEqual(report(site(['check', '--json', '--data-dir', data, '--no-cache'])).report);
    expect((JSON.parse(changed.stdout) as JsonReport).diagnostics.map((d) => [d.code, d.pointer])).toEqual([['load/schema', '/colour']]);
  });

  it('writes nothing under --no-cache', () => {
    const cache = tempDir();
    const r = site(['check', '--data-dir', join(ROOT, 'tests/fixtures/check-base/data'), '--no-cache', '--cache-dir', cache]);
    expect(r.status).toBe(0);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('documents --cache-dir and --no-cache in check --help', () => {
    const r = site(['check', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('--cache-dir <dir>');
    expect(r.stdout).toContain('--no-cache');
  });
});
