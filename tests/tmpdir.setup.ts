/**
 * Every test run gets one temporary folder of its own, set as TMPDIR before
 * the test processes start, and removed when the run ends: the tests make
 * hundreds of scratch folders (builds, caches, fixtures), and a machine that
 * runs the suite often (CI, a developer's loop) must not keep them. The
 * check and search caches go there too (SITE_CACHE_DIR): the tests' many
 * small catalogues would otherwise evict a developer's cached entries from
 * node_modules/.cache/site.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-tests-'));
  const previous = { TMPDIR: process.env.TMPDIR, SITE_CACHE_DIR: process.env.SITE_CACHE_DIR };
  process.env.TMPDIR = dir;
  process.env.SITE_CACHE_DIR = path.join(dir, 'cache');
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
