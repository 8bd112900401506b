/**
 * Stamps (src/emit/output/stamps.ts): a page whose file still matches the
 * stamp its last build recorded is left alone without being read, and any
 * change to the file since, even one that keeps its size and modification
 * time, makes the build write it anew.
 */
import fs, { linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { writeStampedOutputFile } from '../../src/emit/output/page-file.js';
import { pageDigest, stampOf, stampRecorder, takeStamps } from '../../src/emit/output/stamps.js';
import { workDir } from './helpers.js';

// In the test run's own temporary folder, removed when the run ends (tests/tmpdir.setup.ts).
const scratch = workDir;

/** Counts the files opened while `run` runs (the ESM bindings of node:fs follow the patched object). */
function opened<T>(run: () => T): { result: T; files: string[] } {
  const original = fs.openSync;
  const files: string[] = [];
  fs.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
    files.push(String(file));
    return (original as (...a: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  syncBuiltinESMExports();
  try {
    return { result: run(), files };
  } finally {
    fs.openSync = original;
    syncBuiltinESMExports();
  }
}

const identity = (file: string) => {
  const s = lstatSync(file, { bigint: true });
  return [s.ino, s.mtimeNs, s.ctimeNs];
};

describe('writeStampedOutputFile', () => {
  test('returns the stamp of the file as written: its stat and the hash of its bytes', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    const { bytes, stamp } = writeStampedOutputFile(target, ['<p>', 'µ', '</p>'], true);
    expect(bytes).toBe(Buffer.byteLength('<p>µ</p>'));
    expect(readFileSync(target, 'utf8')).toBe('<p>µ</p>');
    expect(stamp).toBe(stampOf(lstatSync(target, { bigint: true }), pageDigest(Buffer.from('<p>µ</p>'))));
  });

  test('a file that still matches its stamp, with the same bytes to write, is left alone and not even opened', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    const first = writeStampedOutputFile(target, ['<p>same</p>'], true);
    const before = identity(target);
    const { result, files } = opened(() => writeStampedOutputFile(target, ['<p>', 'same', '</p>'], false, undefined, first.stamp));
    expect(files).toEqual([]);
    expect(result.stamp).toBe(first.stamp);
    expect(identity(target)).toEqual(before);
  });

  test('other bytes to write: a new file, whatever the stamp says', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    const first = writeStampedOutputFile(target, ['<p>old</p>'], true);
    const kept = path.join(root, 'kept.html');
    linkSync(target, kept);
    const second = writeStampedOutputFile(target, ['<p>new</p>'], false, undefined, first.stamp);
    expect(readFileSync(target, 'utf8')).toBe('<p>new</p>');
    expect(readFileSync(kept, 'utf8')).toBe('<p>old</p>'); // unlinked first, never written through
    expect(second.stamp).not.toBe(first.stamp);
  });

  test('a file edited since its stamp, in place, with its size and modification time put back, is written anew', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    writeStampedOutputFile(target, ['<p>page</p>'], true);
    // A whole second, so that it can be put back exactly; stamped as the build would find the file.
    const second1 = 1_700_000_000;
    utimesSync(target, second1, second1);
    const first = writeStampedOutputFile(target, ['<p>page</p>']);
    writeFileSync(target, '<p>PAGE</p>'); // same size, same inode
    utimesSync(target, second1, second1);
    expect(lstatSync(target, { bigint: true }).mtimeNs).toBe(BigInt(second1) * 1_000_000_000n);
    expect(first.stamp.split('.').slice(0, 4)).toEqual(
      stampOf(lstatSync(target, { bigint: true }), '')
        .split('.')
        .slice(0, 4),
    );
    const second = writeStampedOutputFile(target, ['<p>page</p>'], false, undefined, first.stamp);
    expect(readFileSync(target, 'utf8')).toBe('<p>page</p>');
    expect(second.stamp).toBe(stampOf(lstatSync(target, { bigint: true }), pageDigest(Buffer.from('<p>page</p>'))));
  });

  test('a file replaced by another one (a new inode) is written anew; a stamp of another file matches nothing', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    const other = path.join(root, 'other.html');
    const first = writeStampedOutputFile(target, ['<p>page</p>'], true);
    const elsewhere = writeStampedOutputFile(other, ['<p>page</p>'], true);
    rmSync(target);
    writeFileSync(target, '<p>gone</p>');
    writeStampedOutputFile(target, ['<p>page</p>'], false, undefined, first.stamp);
    expect(readFileSync(target, 'utf8')).toBe('<p>page</p>');
    writeFileSync(target, '<p>edit</p>');
    writeStampedOutputFile(target, ['<p>page</p>'], false, undefined, elsewhere.stamp);
    expect(readFileSync(target, 'utf8')).toBe('<p>page</p>');
  });

  test('without a stamp, reads and compares as writeOutputFile does, and stamps the file it kept', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    writeFileSync(target, '<p>same</p>');
    const before = identity(target);
    const { result, files } = opened(() => writeStampedOutputFile(target, ['<p>same</p>']));
    expect(files).toEqual([target]);
    expect(identity(target)).toEqual(before);
    expect(result.stamp).toBe(stampOf(lstatSync(target, { bigint: true }), pageDigest(Buffer.from('<p>same</p>'))));
  });

  test("twins: a relinked twin moves the page's change time, and the stamp returned is the one the next build finds", () => {
    const root = scratch();
    mkdirSync(path.join(root, 'herb-extract'));
    const page = path.join(root, 'herb-extract/index.html');
    const twin = path.join(root, 'herb-extract.html');
    const first = writeStampedOutputFile(page, ['page'], true, twin);
    expect(lstatSync(twin).ino).toBe(lstatSync(page).ino);
    rmSync(twin);
    const second = writeStampedOutputFile(page, ['page'], false, twin, first.stamp);
    expect(lstatSync(twin).ino).toBe(lstatSync(page).ino);
    const before = identity(page);
    const { result, files } = opened(() => writeStampedOutputFile(page, ['page'], false, twin, second.stamp));
    expect(files).toEqual([]);
    expect(result.stamp).toBe(second.stamp);
    expect(identity(page)).toEqual(before);
  });
});

describe("the record of a folder's stamps", () => {
  test("is kept under the folder's identity, survives its renames, and is forgotten once taken", () => {
    const cache = scratch();
    const root = scratch();
    const folder = path.join(root, '.dist-1-tmp');
    mkdirSync(folder);
    const recorder = stampRecorder(cache, folder);
    recorder.add('index.html', 'a.stamp');
    recorder.add('knowledge/x/index.html', 'b.stamp');
    const out = path.join(root, 'dist');
    fs.renameSync(folder, out); // the swap: the same folder, another name
    recorder.keep();
    const spare = path.join(root, '.dist-spare');
    fs.renameSync(out, spare);
    expect([...takeStamps(cache, spare)]).toEqual([
      ['index.html', 'a.stamp'],
      ['knowledge/x/index.html', 'b.stamp'],
    ]);
    expect(takeStamps(cache, spare).size).toBe(0);
  });

  test("a dropped record (a failed build) leaves nothing behind; another folder's record is not this one's", () => {
    const cache = scratch();
    const a = scratch();
    const b = scratch();
    const kept = stampRecorder(cache, a);
    kept.add('index.html', 'a.stamp');
    kept.keep();
    const failed = stampRecorder(cache, b);
    failed.add('index.html', 'b.stamp');
    failed.drop();
    expect(takeStamps(cache, b).size).toBe(0);
    expect(readdirSync(path.join(cache, 'outputs'))).toHaveLength(1);
    expect(takeStamps(cache, a).get('index.html')).toBe('a.stamp');
  });

  test('keeps the 16 newest records', () => {
    const cache = scratch();
    for (let i = 0; i < 20; i++) {
      const recorder = stampRecorder(cache, scratch());
      recorder.add('index.html', `${i}`);
      recorder.keep();
    }
    expect(readdirSync(path.join(cache, 'outputs')).filter((n) => n.endsWith('.tsv'))).toHaveLength(16);
  });

  test('a record that is not one (another format) gives no stamps', () => {
    const cache = scratch();
    const folder = scratch();
    const recorder = stampRecorder(cache, folder);
    recorder.add('index.html', 'x');
    recorder.keep();
    const [file] = readdirSync(path.join(cache, 'outputs'));
    writeFileSync(path.join(cache, 'outputs', file), 'something else\nindex.html\tx\n');
    expect(takeStamps(cache, folder).size).toBe(0);
  });
});
