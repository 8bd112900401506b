/**
 * The spare (.dist-spare, see src/emit/output/atomic.ts) is a cache: whatever an
 * earlier build left in it that stands where this build writes (a folder
 * where a file goes, a file where a folder goes) is removed, and the build
 * writes the same output as a fresh one.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { clearWay } from '../../src/emit/output/clear-way.js';
import { siteWriter } from '../../src/emit/output/site-writer.js';
import { build, requireCompiled, SMALL, snapshot, workDir } from './helpers.js';

const scratch = () => mkdtempSync(path.join(tmpdir(), 'site-way-'));

describe('clearWay', () => {
  test('removes a file or link on the way to a folder, or a folder where a file goes, and nothing else', () => {
    const root = scratch();
    const outside = scratch();
    writeFileSync(path.join(outside, 'keep.txt'), 'outside');
    writeFileSync(path.join(root, 'a'), 'a file where a folder goes');
    expect(clearWay(root, 'a/b/index.html', 'file')).toBe(true);
    expect(readdirSync(root)).toEqual([]);
    mkdirSync(path.join(root, 'x.html/deeper'), { recursive: true });
    writeFileSync(path.join(root, 'x.html/index.html'), 'a folder where a file goes');
    expect(clearWay(root, 'x.html', 'file')).toBe(true);
    symlinkSync(outside, path.join(root, 'linked'));
    expect(clearWay(root, 'linked', 'folder')).toBe(true); // the link goes, never what it points at
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('outside');
    mkdirSync(path.join(root, 'fine'));
    writeFileSync(path.join(root, 'fine/index.html'), 'in place');
    expect(clearWay(root, 'fine/index.html', 'file')).toBe(false);
    expect(clearWay(root, 'fine', 'folder')).toBe(false);
    expect(readdirSync(root).sort()).toEqual(['fine']);
  });

  test('the site writer writes through a folder where its file goes and a file where its folder goes', async () => {
    const root = scratch();
    mkdirSync(path.join(root, '_headers/old'), { recursive: true });
    writeFileSync(path.join(root, 'search'), 'a file where a folder goes');
    await siteWriter(root).write([
      { path: '_headers', contents: 'headers' },
      { path: 'search/entry.json', contents: '{}' },
    ]);
    expect(readFileSync(path.join(root, '_headers'), 'utf8')).toBe('headers');
    expect(readFileSync(path.join(root, 'search/entry.json'), 'utf8')).toBe('{}');
  });
});

/** A copy of the small fixture whose article route `/knowledge/ginger-dosage-guide` is at `articlePath`. */
function withArticleAt(articlePath: string): string {
  const dir = path.join(workDir(), 'data');
  cpSync(SMALL, dir, { recursive: true });
  const file = path.join(dir, 'routes.json');
  const routes = JSON.parse(readFileSync(file, 'utf8')) as Array<{ path: string }>;
  const route = routes.find((r) => r.path === '/knowledge/ginger-dosage-guide');
  if (route === undefined) throw new Error('the fixture has no route /knowledge/ginger-dosage-guide');
  route.path = articlePath;
  writeFileSync(file, JSON.stringify(routes, null, 2));
  return dir;
}

describe('builds from a spare that has things in the way', () => {
  beforeAll(() => requireCompiled());

  test('a route moved from /knowledge/x.html (a folder) to /knowledge/x (whose twin is the file x.html) and back: every build succeeds, as a fresh one would', async () => {
    const folderRoute = withArticleAt('/knowledge/ginger-dosage-guide.html');
    const twinRoute = withArticleAt('/knowledge/ginger-dosage-guide');
    const fresh = async (data: string) => {
      const work = workDir();
      const run = await build(work, [], undefined, data);
      expect(run.code, run.stderr).toBe(0);
      return snapshot(path.join(work, 'dist'));
    };
    const expected = { [folderRoute]: await fresh(folderRoute), [twinRoute]: await fresh(twinRoute) };
    const work = workDir();
    // B, B: the second leaves the first's output, with the folder knowledge/ginger-dosage-guide.html/, as the spare.
    for (const data of [folderRoute, folderRoute, twinRoute, twinRoute, folderRoute]) {
      const run = await build(work, [], undefined, data);
      expect(run.code, run.stderr).toBe(0);
      expect(snapshot(path.join(work, 'dist'))).toEqual(expected[data]);
    }
  }, 180_000);

  test('folders where the build writes files and files where it makes folders, left in the spare, are removed', async () => {
    const work = workDir();
    const dist = path.join(work, 'dist');
    for (let i = 0; i < 2; i++) expect((await build(work)).code).toBe(0);
    const expected = snapshot(dist);
    const spare = path.join(work, '.dist-spare');
    const replaceWith = (rel: string, kind: 'file' | 'folder') => {
      rmSync(path.join(spare, rel), { recursive: true, force: true });
      if (kind === 'file') writeFileSync(path.join(spare, rel), 'in the way');
      else {
        mkdirSync(path.join(spare, rel, 'deeper'), { recursive: true });
        writeFileSync(path.join(spare, rel, 'index.html'), 'in the way');
      }
    };
    replaceWith('_headers', 'folder'); // as a build with a /_headers route left it
    replaceWith('about-us.html', 'folder'); // a page's twin
    replaceWith('404.html', 'folder'); // an error page
    replaceWith('images/logo.svg', 'folder'); // artwork
    replaceWith('contact-us', 'file'); // a page's folder
    replaceWith('assets', 'file'); // the bundle's folder
    replaceWith('images/products', 'file'); // the artwork's folder
    // With a worker beside the main thread: each clears its own share.
    const run = await build(work, ['--concurrency', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(snapshot(dist)).toEqual(expected);
  }, 180_000);
});
