/**
 * `bin/site` runs build/bundle/cli.js, which `npm run compile` makes from
 * tsc's build/src/ (scripts/bundle-cli.ts). It must not run a bundle that is
 * missing, or older than what tsc last compiled: that would be yesterday's
 * code. Run here on a copy of the launcher beside stand-in files.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const work = mkdtempSync(path.join(tmpdir(), 'site-launcher-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const bin = path.join(work, 'bin', 'site');
mkdirSync(path.dirname(bin), { recursive: true });
copyFileSync(path.resolve('bin/site'), bin);
const bundle = path.join(work, 'build', 'bundle', 'cli.js');
const compiled = path.join(work, 'build', 'src', 'cli', 'index.js');
const run = () => spawnSync(process.execPath, [bin, 'anything'], { encoding: 'utf8' });
const write = (file: string, text: string, mtime: number) => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  utimesSync(file, mtime, mtime);
};
const BUNDLE = 'export async function main(argv) { process.stdout.write("bundle ran with " + argv.slice(2).join(" ") + "\\n"); return 0; }\n';

describe('bin/site', () => {
  it('says to compile when the bundle is missing', () => {
    const r = run();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('the compiled CLI is missing (build/bundle/cli.js). Run `npm run compile`');
  });

  it('runs the bundle when it is as new as what tsc compiled, and refuses it once tsc has compiled again', () => {
    const now = Date.now() / 1000;
    write(compiled, '// tsc output\n', now - 20);
    write(bundle, BUNDLE, now - 10);
    const ok = run();
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toBe('bundle ran with anything\n');
    expect(ok.status).toBe(0);

    write(compiled, '// tsc output, again\n', now);
    const stale = run();
    expect(stale.status).toBe(2);
    expect(stale.stdout).toBe('');
    expect(stale.stderr).toContain('build/bundle/ is older than build/src/ (tsc ran without the bundle step). Run `npm run compile`.');
  });
});
