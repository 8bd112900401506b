/**
 * Every kind of page the build writes is valid HTML, as the Nu Html Checker
 * (the W3C's validator: vnu.jar of the `vnu-jar` package, run on the
 * machine's Java) judges it: one built page of each screen kind of the
 * shipped catalogue, 404.html and 500.html, checked in one run (one JVM
 * start). Errors fail the test, each printed with its file, line and
 * message; warnings are printed and pass. A page known to be invalid goes
 * through the same run, so a checker that stopped reporting (or reported
 * elsewhere) fails here rather than passing everything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENS } from '../../src/core/schema.js';
import { buildSite, type BuiltSite } from './harness.js';

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  message: string;
  extract?: string;
}

/** The jar's path: what the vnu-jar package exports. */
function vnuJar(): string {
  let jar: string;
  try {
    jar = String(createRequire(import.meta.url)('vnu-jar'));
  } catch (e) {
    throw new Error(`the vnu-jar devDependency is missing (npm ci): ${(e as Error).message.split('\n')[0]}`);
  }
  if (!existsSync(jar)) throw new Error(`vnu-jar names ${jar}, which is missing: reinstall it (npm ci)`);
  return jar;
}

/** Runs the checker once over every file; fails (never skips) without Java. */
function validate(files: readonly string[]): VnuMessage[] {
  const run = spawnSync('java', ['-jar', vnuJar(), '--format', 'json', '--stdout', '--exit-zero-always', '--skip-info-messages', ...files], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    timeout: 120_000,
  });
  if (run.error) {
    const missing = (run.error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing ? 'java is missing; the HTML validity test needs Java 17 or later: apt-get install default-jre-headless' : `java failed: ${run.error.message}`,
    );
  }
  if (run.status !== 0) throw new Error(`vnu.jar exited with ${run.status}: ${run.stderr.slice(-2000)}`);
  return (JSON.parse(run.stdout) as { messages: VnuMessage[] }).messages;
}

/** The built file of a route: its folder's index.html (its twin, when written, is the same file). */
const fileOf = (dist: string, route: string) => path.join(dist, route === '/' ? '' : route.slice(1), 'index.html');

const where = (root: string, m: VnuMessage) =>
  `${m.url ? path.relative(root, fileURLToPath(m.url)) : '(no file)'}:${m.lastLine ?? '?'}:${m.firstColumn ?? '?'}`;
const shown = (root: string, list: VnuMessage[]) => list.map((m) => `${where(root, m)} ${m.message}${m.extract ? `\n    ${m.extract.trim()}` : ''}`).join('\n');

describe('built pages are valid HTML (Nu Html Checker)', () => {
  let site: BuiltSite;
  let control: string;
  let files: string[];
  let messages: VnuMessage[];

  beforeAll(async () => {
    site = await buildSite();
    control = mkdtempSync(path.join(tmpdir(), 'html-validity-'));
    const invalid = path.join(control, 'invalid.html');
    writeFileSync(
      invalid,
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><script type="module" src="/a.js" defer></script></head><body></body></html>',
    );
    const kinds = new Map<string, string>();
    for (const r of site.routes) if (!kinds.has(r.screen)) kinds.set(r.screen, r.path);
    files = [...[...kinds.values()].map((p) => fileOf(site.dist, p)), path.join(site.dist, '404.html'), path.join(site.dist, '500.html')];
    for (const f of files) if (!existsSync(f)) throw new Error(`the build wrote no ${f}`);
    messages = validate([...files, invalid]);
  }, 300_000);
  afterAll(async () => {
    if (control) rmSync(control, { recursive: true, force: true });
    await site?.cleanup();
  });

  it('checks one page of every screen kind, 404.html and 500.html', () => {
    const screens = new Set(site.routes.map((r) => r.screen));
    expect(files.length).toBe(screens.size + 2);
    // The shipped catalogue has a route of every screen there is.
    expect([...screens].sort()).toEqual([...SCREENS].sort());
  });

  it('reports the known-invalid page, so silence means valid', () => {
    const mine = messages.filter((m) => m.url && fileURLToPath(m.url).startsWith(control + path.sep));
    expect(mine.map((m) => [m.type, m.message])).toEqual([['error', 'A “script” element with “type=module” must not have a “defer” attribute.']]);
  });

  it('finds no errors on any page', () => {
    const pages = messages.filter((m) => !(m.url && fileURLToPath(m.url).startsWith(control + path.sep)));
    const warnings = pages.filter((m) => m.type === 'info');
    if (warnings.length > 0) console.warn(`Nu Html Checker warnings (not failing):\n${shown(site.dist, warnings)}`);
    // Each error as `file:line:column message`, the whole list in the failure.
    expect(
      shown(
        site.dist,
        pages.filter((m) => m.type !== 'info'),
      ),
    ).toBe('');
  });
});
