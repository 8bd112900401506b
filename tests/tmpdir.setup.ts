/**
 * Every test run gets one temporary folder of its own, set as TMPDIR before
 * the test processes start, and removed when the run ends: the tests make
 * hundreds of scratch folders (builds, caches, fixtures), and a machine that
 * runs the suite often (CI, a developer's loop) must not keep them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-tests-'));
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(dir, { recursive: true, force: true });
  };
}
