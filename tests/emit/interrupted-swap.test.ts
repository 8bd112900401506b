/**
 * A build killed in the middle of its swap (src/emit/output/atomic.ts): every state
 * the folders beside dist/ can be left in is recovered from, on disk and for
 * real, with the build SIGKILLed between the swap's two renames (strace's
 * fault injection holds each rename for 1.5 s).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { keepAsSpare, recoverOutput, spareDirFor } from '../../src/emit/output/atomic.js';
import { build, buildWithRenderer, hook, ROOT, requireCompiled, SMALL, snapshot, workDir } from './helpers.js';

const scratch = () => mkdtempSync(path.join(tmpdir(), 'site-swap-'));
/** A pid no process has (above any pid_max). */
const DEAD = 999999999;
/** A process that runs for the whole test: vitest's own. */
const LIVE = process.ppid;

/** A folder holding one file, `which`, saying what it is. */
function folder(dir: string, which: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'which.txt'), which);
  return dir;
}
const which = (dir: string): string => readFileSync(path.join(dir, 'which.txt'), 'utf8');
const names = (parent: string): string[] => readdirSync(parent).sort();

describe('recovery from what a dead build left beside dist/', () => {
  test('dist/ missing, the old output moved aside and the new one complete (killed between the renames): the old output is put back, the new one kept as the spare', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `dist.old-1000-${DEAD}`), 'old');
    folder(path.join(parent, `.dist-${DEAD}-tmp`), 'new');
    const recovery = await recoverOutput(out);
    expect(recovery.restored).toBe(path.join(parent, `dist.old-1000-${DEAD}`));
    expect(which(out)).toBe('old');
    expect(which(spareDirFor(out))).toBe('new');
    expect(names(parent)).toEqual(['.dist-spare', 'dist']);
  });

  test('dist/ missing and only the old output aside (the temporary folder deleted since): it is put back', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `dist.old-1000-${DEAD}`), 'old');
    await recoverOutput(out);
    expect(which(out)).toBe('old');
    expect(names(parent)).toEqual(['dist']);
  });

  test('dist/ missing, several old outputs: the newest is put back, the next kept as the spare, the rest deleted', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `dist.old-900-${DEAD}`), 'older');
    folder(path.join(parent, `dist.old-1000-${DEAD}`), 'newest');
    folder(path.join(parent, `dist.old-800-${DEAD}`), 'oldest');
    const recovery = await recoverOutput(out);
    expect(which(out)).toBe('newest');
    expect(which(spareDirFor(out))).toBe('older');
    expect(recovery.discarded).toEqual([path.join(parent, `dist.old-800-${DEAD}`)]);
    await expect.poll(() => names(parent), { timeout: 10_000 }).toEqual(['.dist-spare', 'dist']);
  });

  test('dist/ missing and only a temporary folder (nothing says it is complete): it is not served, only kept as the spare', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `.dist-${DEAD}-tmp`), 'partial');
    const recovery = await recoverOutput(out);
    expect(recovery.restored).toBeNull();
    expect(existsSync(out)).toBe(false);
    expect(which(spareDirFor(out))).toBe('partial');
  });

  test('dist/ there and the old output still aside (killed after the swap): dist/ stays, the old output becomes the spare', async () => {
    const parent = scratch();
    const out = folder(path.join(parent, 'dist'), 'new');
    folder(path.join(parent, `dist.old-1000-${DEAD}`), 'old');
    await recoverOutput(out);
    expect(which(out)).toBe('new');
    expect(which(spareDirFor(out))).toBe('old');
    expect(names(parent)).toEqual(['.dist-spare', 'dist']);
  });

  test('dist/ there, a spare already, an old output and a temporary folder left: both deleted, dist/ and the spare untouched', async () => {
    const parent = scratch();
    const out = folder(path.join(parent, 'dist'), 'current');
    folder(spareDirFor(out), 'spare');
    folder(path.join(parent, `dist.old-1000-${DEAD}`), 'old');
    folder(path.join(parent, `.dist-${DEAD}-tmp`), 'partial');
    folder(path.join(parent, 'distant'), 'someone else’s');
    await recoverOutput(out);
    // Renamed for deletion at once: a half-deleted folder never keeps a name recovery would put back.
    expect(names(parent).filter((n) => n.startsWith('dist.old-') || n.endsWith('-tmp'))).toEqual([]);
    await expect.poll(() => names(parent), { timeout: 10_000 }).toEqual(['.dist-spare', 'dist', 'distant']);
    expect([which(out), which(spareDirFor(out)), which(path.join(parent, 'distant'))]).toEqual(['current', 'spare', 'someone else’s']);
  });

  test('a running build’s folders are its own: dist/ missing between its renames is left to it', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `dist.old-1000-${LIVE}`), 'old');
    folder(path.join(parent, `.dist-${LIVE}-tmp`), 'new');
    const recovery = await recoverOutput(out);
    expect(recovery).toEqual({ restored: null, spare: null, discarded: [] });
    expect(names(parent)).toEqual([`.dist-${LIVE}-tmp`, `dist.old-1000-${LIVE}`]);
  });

  test('a folder whose deletion was cut short is deleted, never put back; nothing there, nothing done', async () => {
    const parent = scratch();
    const out = path.join(parent, 'dist');
    folder(path.join(parent, `.dist-deleting-1000-${DEAD}-0`), 'half deleted');
    expect(await recoverOutput(out)).toEqual({ restored: null, spare: null, discarded: [] });
    await expect.poll(() => names(parent), { timeout: 10_000 }).toEqual([]);
    expect(await recoverOutput(path.join(parent, 'no/such/dist'))).toEqual({ restored: null, spare: null, discarded: [] });
  });

  test('an old output that is not kept as the spare loses its name before it is deleted', async () => {
    const parent = scratch();
    const out = folder(path.join(parent, 'dist'), 'new');
    folder(spareDirFor(out), 'spare');
    const aside = folder(path.join(parent, `dist.old-1000-${process.pid}`), 'old');
    await keepAsSpare(aside, out);
    expect(names(parent).some((n) => n.startsWith('dist.old-'))).toBe(false);
    await expect.poll(() => names(parent), { timeout: 10_000 }).toEqual(['.dist-spare', 'dist']);
  });
});

const BIN = path.join(ROOT, 'bin/site');

function requireStrace(): void {
  const probe = spawnSync('strace', ['-V'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0)
    throw new Error('these tests need strace (apt-get install -y strace) to hold the build between its two renames');
}

/**
 * Starts `site build` of the small fixture into `<work>/dist` under strace,
 * each rename held 1.5 s after it is made, and SIGKILLs it as soon as dist/
 * has been moved aside and not yet replaced. Resolves to the build's pid.
 */
async function killBetweenRenames(work: string): Promise<number> {
  const dist = path.join(work, 'dist');
  const renames = '?rename,?renameat,?renameat2';
  const traced = spawn(
    'strace',
    [
      '-f',
      '-qq',
      '-o',
      '/dev/null',
      '-e',
      `trace=${renames}`,
      '-e',
      `inject=${renames}:delay_exit=1500000`,
      process.execPath,
      BIN,
      'build',
      // From scratch: a build with nothing to do (build/incremental/up-to-date.ts) would reach no swap.
      '--no-cache',
      '--data-dir',
      SMALL,
      '--out',
      dist,
      '--reports',
      path.join(work, 'reports'),
    ],
    {
      stdio: 'ignore',
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  const exited = new Promise<void>((resolve) => traced.on('exit', () => resolve()));
  const deadline = Date.now() + 90_000;
  try {
    while (Date.now() < deadline) {
      const aside = readdirSync(work)
        .map((n) => /^dist\.old-\d+-(\d+)$/.exec(n))
        .find((m) => m !== null);
      if (aside != null && !existsSync(dist)) {
        const pid = Number(aside[1]);
        process.kill(pid, 'SIGKILL');
        await exited;
        return pid;
      }
      if (traced.exitCode !== null) throw new Error('the traced build ended before its swap');
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the traced build did not reach its swap in 90 s');
  } finally {
    if (traced.exitCode === null) traced.kill('SIGKILL');
  }
}

function httpStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => get(url, (res) => (res.resume(), resolve(res.statusCode ?? 0))).on('error', reject));
}

describe('a build SIGKILLed between the two renames of its swap', () => {
  beforeAll(() => {
    requireCompiled();
    requireStrace();
  });

  test('the next build puts the previous site back before anything else, even when it fails itself', async () => {
    const work = workDir();
    const dist = path.join(work, 'dist');
    expect((await build(work)).code).toBe(0);
    const before = snapshot(dist);
    const pid = await killBetweenRenames(work);
    expect(existsSync(dist)).toBe(false); // the state the kill left
    expect(readdirSync(work)).toContain(`.dist-${pid}-tmp`);
    const failed = await buildWithRenderer(work, hook('failing-render.mjs'));
    expect(failed.code).toBe(1);
    expect(snapshot(dist)).toEqual(before);
    expect(readdirSync(work).some((n) => n.startsWith('dist.old-'))).toBe(false);
    // And the spare that recovery kept serves the next build like any other.
    expect((await build(work)).code).toBe(0);
    expect(snapshot(dist)).toEqual(before);
  }, 180_000);

  test('site serve puts the previous site back before it serves', async () => {
    const work = workDir();
    const dist = path.join(work, 'dist');
    expect((await build(work)).code).toBe(0);
    await killBetweenRenames(work);
    expect(existsSync(dist)).toBe(false);
    const server = spawn(process.execPath, [BIN, 'serve', '--dir', dist, '--port', '0', '--data-dir', path.join(work, 'inquiries')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        server.stderr.on('data', (c: Buffer) => {
          stderr += c.toString();
          const m = / on (http:\/\/\S+) /.exec(stderr);
          if (m) resolve(m[1]);
        });
        server.on('exit', (code) => reject(new Error(`site serve exited (${code}) before listening:\n${stderr}`)));
      });
      expect(await httpStatus(`${url}/`)).toBe(200);
      expect(await httpStatus(`${url}/about-us`)).toBe(200);
    } finally {
      server.kill('SIGTERM');
    }
  }, 180_000);
});
