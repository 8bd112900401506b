/**
 * A page's twin, and a page taken over from the output, on a file system
 * without hard links (FAT, some network and container mounts): linkSync
 * fails there, and each must be a copy.
 * Such a mount cannot be made in a test, so node:fs's linkSync is replaced
 * by one that fails with the errors those systems give.
 */
import { linkSync as realLinkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';

const links = vi.hoisted(() => ({ failures: [] as string[], calls: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const linkSync: typeof fs.linkSync = (existing, name) => {
    links.calls++;
    const code = links.failures.shift();
    if (code !== undefined) throw Object.assign(new Error(`${code}: link '${String(existing)}' -> '${String(name)}'`), { code });
    fs.linkSync(existing, name);
  };
  return { ...fs, default: { ...fs, linkSync }, linkSync };
});

const { writeOutputFile } = await import('../../src/emit/output/page-file.js');
const { placeRecordedPage } = await import('../../src/emit/incremental/reuse.js');
const { pageDigest, stampOf } = await import('../../src/emit/output/stamps.js');

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
beforeEach(() => {
  links.failures = [];
  links.calls = 0;
});

const setup = () => {
  const root = mkdtempSync(path.join(tmpdir(), 'site-no-links-'));
  dirs.push(root);
  mkdirSync(path.join(root, 'herb-extract'));
  return { root, page: path.join(root, 'herb-extract/index.html'), twin: path.join(root, 'herb-extract.html') };
};
const sameFile = (a: string, b: string) => statSync(a).ino === statSync(b).ino;

describe("a page's twin where the file system has no hard links", () => {
  test.each(['EPERM', 'EXDEV', 'ENOTSUP', 'EMLINK'])('%s: the twin is a copy of the page', (code) => {
    const { page, twin } = setup();
    links.failures = [code];
    writeOutputFile(page, ['<p>', 'page', '</p>'], true, twin);
    expect(links.calls).toBe(1);
    expect(readFileSync(twin, 'utf8')).toBe('<p>page</p>');
    expect(sameFile(page, twin)).toBe(false);
  });

  test('a copy already there with the old bytes is replaced, and one linked elsewhere is not written through', () => {
    const { root, page, twin } = setup();
    links.failures = ['EPERM'];
    writeOutputFile(page, ['old'], true, twin);
    const kept = path.join(root, 'kept-elsewhere.html');
    realLinkSync(twin, kept);
    links.failures = ['EPERM'];
    writeOutputFile(page, ['new'], false, twin);
    expect(readFileSync(page, 'utf8')).toBe('new');
    expect(readFileSync(twin, 'utf8')).toBe('new');
    expect(readFileSync(kept, 'utf8')).toBe('old');
  });

  test('an unchanged page whose twin is a copy, not a link, is linked again (or copied again) rather than trusted', () => {
    const { page, twin } = setup();
    writeOutputFile(page, ['same'], true, twin);
    rmSync(twin);
    writeFileSync(twin, 'stale copy');
    links.failures = ['EEXIST', 'EXDEV'];
    links.calls = 0;
    writeOutputFile(page, ['same'], false, twin);
    expect(links.calls).toBe(2);
    expect(readFileSync(twin, 'utf8')).toBe('same');
  });

  test("any other error is the build's: it is thrown, not papered over with a copy", () => {
    const { page, twin } = setup();
    links.failures = ['EACCES'];
    expect(() => writeOutputFile(page, ['page'], true, twin)).toThrow(/EACCES/);
    links.failures = ['EEXIST', 'EEXIST'];
    writeFileSync(twin, 'in the way');
    expect(() => writeOutputFile(page, ['page'], false, twin)).toThrow(/EEXIST/);
  });
});

describe('a page taken over where the file system has no hard links', () => {
  /** The output's page (with its recorded digest and stamp) and the spare's stale page and twin, beside it. */
  const recorded = () => {
    const { root, page, twin } = setup();
    const output = path.join(root, 'dist/herb-extract/index.html');
    mkdirSync(path.dirname(output), { recursive: true });
    writeFileSync(output, '<p>recorded</p>');
    const digest = pageDigest(readFileSync(output));
    writeFileSync(page, 'stale page');
    writeFileSync(twin, 'stale twin');
    return { output, page, twin, entry: { digest, stamp: stampOf(statSync(output, { bigint: true }), digest) } };
  };

  test.each(['EPERM', 'EXDEV'])("%s: the page and its twin are copies of the output's, which keeps its stamp", (code) => {
    const { output, page, twin, entry } = recorded();
    links.failures = [code, code];
    const placed = placeRecordedPage(output, page, entry, twin, false, 'link');
    expect(links.calls).toBe(2);
    expect([readFileSync(page, 'utf8'), readFileSync(twin, 'utf8')]).toEqual(['<p>recorded</p>', '<p>recorded</p>']);
    expect(sameFile(page, output)).toBe(false);
    expect(placed?.stamp).toBe(stampOf(statSync(page, { bigint: true }), entry.digest));
    expect(stampOf(statSync(output, { bigint: true }), entry.digest)).toBe(entry.stamp);
  });

  test("with hard links, both names are the output's file; an output file changed since its stamp is not placed", () => {
    const { output, page, twin, entry } = recorded();
    expect(placeRecordedPage(output, page, entry, twin, false, 'link')).not.toBeNull();
    expect([sameFile(page, output), sameFile(twin, output)]).toEqual([true, true]);
    writeFileSync(output, '<p>edited by hand</p>');
    const other = path.join(path.dirname(twin), 'other.html');
    expect(placeRecordedPage(output, other, entry, undefined, true, 'link')).toBeNull();
  });
});
