/**
 * Runs `bin/site build` as a process against fixture catalogues, in fresh
 * folders. Needs the compiled CLI and the browser bundle: the README's test
 * command runs `npm run compile` first.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const SMALL = path.join(ROOT, 'tests/fixtures/build-small');
export const HOOKS = path.join(ROOT, 'tests/fixtures/build-hooks');
const BIN = path.join(ROOT, 'bin/site');

export { requireFreshBuild as requireCompiled } from '../compiled.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function site(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return run(process.execPath, [BIN, ...args], options);
}

function run(command: string, args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A fresh working folder; builds go into `<work>/dist` and `<work>/reports`. */
export function workDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'site-build-test-'));
}

export function build(work: string, extra: string[] = [], env?: Record<string, string>, data = SMALL): Promise<Run> {
  return site(['build', '--data-dir', data, '--out', path.join(work, 'dist'), '--reports', path.join(work, 'reports'), ...extra], { env });
}

/**
 * `site build` with the render API of `renderModule` (a module URL, see HOOKS), printing and exiting as the
 * CLI does: tests/emit/build-with-renderer.mjs.
 */
export function buildWithRenderer(
  work: string,
  renderModule: string,
  options: { concurrency?: number; env?: Record<string, string>; data?: string } = {},
): Promise<Run> {
  const args = [
    path.join(ROOT, 'tests/emit/build-with-renderer.mjs'),
    renderModule,
    options.data ?? SMALL,
    path.join(work, 'dist'),
    path.join(work, 'reports'),
  ];
  if (options.concurrency !== undefined) args.push(String(options.concurrency));
  return run(process.execPath, args, { env: options.env });
}

/** Every file under `dir`, relative with forward slashes, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(path.relative(dir, full).split(path.sep).join('/'));
    }
  };
  walk(dir);
  return out.sort();
}

/** file → sha1 of its bytes: comparing thousands of pages as buffers deep-equal takes the test runner minutes. */
export function fileDigests(dir: string): Map<string, string> {
  return new Map(
    listFiles(dir).map((f) => [
      f,
      createHash('sha1')
        .update(readFileSync(path.join(dir, f)))
        .digest('hex'),
    ]),
  );
}

/** file → contents, for comparing whole output folders byte for byte. */
export function snapshot(dir: string): Map<string, Buffer> {
  return new Map(listFiles(dir).map((f) => [f, readFileSync(path.join(dir, f))]));
}

export const hook = (name: string): string => new URL(`file://${path.join(HOOKS, name)}`).href;
