import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CODE_DIRS,
  CODE_PACKAGES,
  codeFingerprint,
  defaultCacheDir,
  entryPath,
  openEntry,
  PARTS_FOLDER,
  readEntry,
  snapshotKey,
  storedPart,
  writeEntry,
  writeEntryParts,
} from '../../src/load/cache.js';
import { readDataDir } from '../../src/load/read.js';
import { scenario } from '../check/fixture.js';

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'site-cache-'));
  made.push(dir);
  return dir;
}

/** An entry's bytes damaged every way a reader must refuse: a flipped byte, truncated, garbage, empty, a byte too many. */
function damaged(good: Buffer): Buffer[] {
  const flipped = Buffer.from(good);
  flipped[flipped.length - 2] ^= 0xff;
  return [flipped, good.subarray(0, good.length - 5), Buffer.from('not a cache entry'), Buffer.alloc(0), Buffer.concat([good, Buffer.from('x')])];
}

describe('snapshotKey', () => {
  it('is stable for the same bytes and changes with one byte of one file, a stray entry, or the code', () => {
    const data = scenario(null);
    const key = snapshotKey(readDataDir(data), 'code-a');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(snapshotKey(readDataDir(data), 'code-a')).toBe(key);
    expect(snapshotKey(readDataDir(data), 'code-b')).not.toBe(key);

    const file = join(data, 'products/bulk-curcumin.json');
    const original = readFileSync(file);
    const changed = Buffer.from(original);
    changed[changed.indexOf('"name"') + 9] ^= 1; // one bit of the product's name
    writeFileSync(file, changed);
    const changedKey = snapshotKey(readDataDir(data), 'code-a');
    expect(changedKey).not.toBe(key);
    writeFileSync(file, original);
    expect(snapshotKey(readDataDir(data), 'code-a')).toBe(key);

    writeFileSync(join(data, 'notes.txt'), '');
    expect(snapshotKey(readDataDir(data), 'code-a')).not.toBe(key);
  });

  it('changes with the bytes of an image in data/images/, though they are not held', () => {
    const data = scenario('check-images');
    const image = join(data, 'images/photos/ginger.png');
    const snapshot = readDataDir(data);
    expect(snapshot.images.map((i) => i.rel)).toContain('images/photos/ginger.png');
    const key = snapshotKey(snapshot, 'code-a');
    const bytes = readFileSync(image);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(image, bytes);
    expect(snapshotKey(readDataDir(data), 'code-a')).not.toBe(key);
  });

  it('is undefined for a catalogue over the size limit', () => {
    const snapshot = readDataDir(scenario(null));
    const bytes = snapshot.files.reduce((n, f) => n + f.bytes!.length, 0);
    expect(snapshotKey(snapshot, 'c', bytes)).toBeDefined();
    expect(snapshotKey(snapshot, 'c', bytes - 1)).toBeUndefined();
  });

  it('is undefined when the folder is missing or a file cannot be read', () => {
    const data = scenario(null);
    expect(snapshotKey(readDataDir(join(data, 'nope')), 'c')).toBeUndefined();
    rmSync(join(data, 'site.json'));
    expect(snapshotKey(readDataDir(data), 'c')).toBeUndefined();
  });

  it('depends on the data directory as diagnostics name it', () => {
    const data = scenario(null);
    expect(snapshotKey(readDataDir(data), 'c')).not.toBe(snapshotKey(readDataDir(relative(process.cwd(), data)), 'c'));
  });
});

describe('readEntry and writeEntry', () => {
  const value = [Buffer.from('first part'), Buffer.alloc(0), Buffer.from([0, 10, 255, 13, 10])];

  it('round-trip the parts under their key, and miss under any other', () => {
    const path = join(tempDir(), 'sub', 'check-a.bin');
    expect(readEntry(path, 'k1')).toBeUndefined();
    expect(writeEntry(path, 'k1', value)).toBe(true);
    expect(readEntry(path, 'k1')).toEqual(value);
    expect(readEntry(path, 'k2')).toBeUndefined();
    // Nothing but the entry is left behind (the temp file was renamed into place).
    expect(readdirSync(dirname(path))).toEqual(['check-a.bin']);
  });

  it('miss on a damaged entry: a flipped byte, a truncated file, garbage, an empty file, a byte too many', () => {
    const path = join(tempDir(), 'check-a.bin');
    writeEntry(path, 'k', value);
    const good = readFileSync(path);
    for (const bad of damaged(good)) {
      writeFileSync(path, bad);
      expect(readEntry(path, 'k')).toBeUndefined();
    }
    // and a rewrite repairs it
    writeEntry(path, 'k', value);
    expect(readEntry(path, 'k')).toEqual(value);
  });

  it('open an entry part by part (openEntry): the same parts, the same misses, and the bytes checked even once the entry is replaced', () => {
    const path = join(tempDir(), 'check-a.bin');
    writeEntry(path, 'k', value);
    const good = readFileSync(path);
    const entry = openEntry(path, 'k')!;
    expect(entry.count).toBe(value.length);
    expect([0, 1, 2].map((i) => entry.part(i))).toEqual(value);
    expect(openEntry(path, 'other')).toBeUndefined();
    writeEntry(path, 'k', [Buffer.from('newer')]);
    expect(entry.part(0)).toEqual(value[0]); // the open file is the one checked; writers rename a new one into place
    entry.close();
    expect(() => entry.part(0)).toThrow();
    for (const bad of damaged(good)) {
      writeFileSync(path, bad);
      expect(openEntry(path, 'k')).toBeUndefined();
    }
  });

  it('copy a part from an open entry with the hash it checked, not hashed again: the new entry reads back, and a hash that is not its bytes is a miss', () => {
    const path = join(tempDir(), 'check-a.bin');
    writeEntry(path, 'k', value);
    const entry = openEntry(path, 'k')!;
    const copy = join(tempDir(), 'check-b.bin');
    expect(writeEntryParts(copy, 'k', 3, (i) => (i === 1 ? Buffer.from('new') : entry.stored(i)))).toBe(true);
    expect(readEntry(copy, 'k')).toEqual([value[0], Buffer.from('new'), value[2]]);
    // The hash given is the one stored: a wrong one is caught when the entry is read or opened.
    expect(writeEntryParts(copy, 'k', 1, () => storedPart(value[0], entry.stored(2).sha256))).toBe(true);
    expect(readEntry(copy, 'k')).toBeUndefined();
    expect(openEntry(copy, 'k')).toBeUndefined();
    entry.close();
  });

  it('copy a part larger than the copy buffer from an open entry, a chunk at a time, byte for byte', () => {
    const path = join(tempDir(), 'check-a.bin');
    const large = Buffer.from(Array.from({ length: 2_500_000 }, (_, i) => (i * 7919) % 251));
    writeEntry(path, 'k', [Buffer.from('head'), large]);
    const entry = openEntry(path, 'k')!;
    const copy = join(tempDir(), 'check-b.bin');
    expect(writeEntryParts(copy, 'k', 3, (i) => (i === 2 ? Buffer.from('tail') : entry.stored(i)))).toBe(true);
    expect(readEntry(copy, 'k')).toEqual([Buffer.from('head'), large, Buffer.from('tail')]);
    entry.close();
    // Closed, its parts can no longer be copied: the new entry is not written.
    expect(writeEntryParts(copy + '2', 'k', 1, () => entry.stored(1))).toBe(false);
  });

  it('round-trip an entry of many parts (a 100,000-file catalogue has about a hundred): its header is longer than a kilobyte', () => {
    const path = join(tempDir(), 'check-a.bin');
    const many = Array.from({ length: 200 }, (_, i) => Buffer.from(`part ${i}`));
    expect(writeEntry(path, 'k', many)).toBe(true);
    expect(readEntry(path, 'k')).toEqual(many);
    const entry = openEntry(path, 'k')!;
    expect(entry.count).toBe(200);
    expect(entry.part(199)).toEqual(many[199]);
    entry.close();
  });

  it('report false instead of throwing when the folder cannot be written', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), '');
    expect(writeEntry(join(dir, 'file', 'check-a.bin'), 'k', value)).toBe(false);
  });

  it('keep one entry per data directory, and at most 8 of them', () => {
    const dir = tempDir();
    const a = readDataDir(scenario(null));
    const b = readDataDir(scenario(null));
    expect(entryPath(dir, a)).not.toBe(entryPath(dir, b));
    expect(entryPath(dir, a)).toBe(entryPath(dir, readDataDir(a.base)));
    for (let i = 0; i < 20; i++) writeEntry(join(dir, `check-${i}.bin`), 'k', [Buffer.from([i])]);
    expect(readdirSync(dir).length).toBe(8);
  });
});

describe('entries stored apart (EntryWriteOptions.apart)', () => {
  const value = [Buffer.from('first part'), Buffer.alloc(0), Buffer.from([0, 10, 255, 13, 10])];
  const APART = { apart: true };
  const parts = (dir: string) => readdirSync(join(dir, PARTS_FOLDER)).sort();
  const write = (path: string, key: string, list: readonly Buffer[]) => writeEntryParts(path, key, list.length, (i) => list[i], APART);

  it('round-trip the parts under their key, each in a file named by its hash, the entry its header alone', () => {
    const dir = tempDir();
    const path = join(dir, 'check-a.bin');
    expect(write(path, 'k1', value)).toBe(true);
    expect(readEntry(path, 'k1')).toEqual(value);
    expect(readEntry(path, 'k2')).toBeUndefined();
    const entry = openEntry(path, 'k1')!;
    expect([0, 1, 2].map((i) => entry.part(i))).toEqual(value);
    entry.close();
    expect(parts(dir)).toEqual(value.map((v) => `${createHash('sha256').update(v).digest('hex')}.part`).sort());
    expect(readFileSync(path).length).toBeLessThan(400);
    expect(readdirSync(dir).sort()).toEqual(['check-a.bin', PARTS_FOLDER]);
  });

  it('write a part copied from the entry before, or one whose file is there, not again; the entry before still reads as it was', () => {
    const dir = tempDir();
    const path = join(dir, 'check-a.bin');
    write(path, 'k', value);
    const before = new Map(parts(dir).map((n) => [n, statSync(join(dir, PARTS_FOLDER, n), { bigint: true }).mtimeNs]));
    const entry = openEntry(path, 'k')!;
    expect(writeEntryParts(path, 'k', 4, (i) => (i === 1 ? Buffer.from('new') : i === 3 ? Buffer.from(value[0]) : entry.stored(i)), APART)).toBe(true);
    expect(readEntry(path, 'k')).toEqual([value[0], Buffer.from('new'), value[2], value[0]]);
    // Parts written moments ago are kept whatever names them (another process's entry may be on its way).
    for (const [name, mtime] of before) expect(statSync(join(dir, PARTS_FOLDER, name), { bigint: true }).mtimeNs, name).toBe(mtime);
    expect(parts(dir)).toHaveLength(4);
    // The open entry has its parts open: it reads what it checked.
    expect(entry.part(1)).toEqual(value[1]);
    entry.close();
  });

  it('miss on a damaged or missing part, delete a damaged part file, and a rewrite repairs the entry', () => {
    const dir = tempDir();
    const path = join(dir, 'check-a.bin');
    write(path, 'k', value);
    const file = join(dir, PARTS_FOLDER, `${createHash('sha256').update(value[0]).digest('hex')}.part`);
    for (const bad of damaged(readFileSync(file))) {
      writeFileSync(file, bad);
      expect(openEntry(path, 'k')).toBeUndefined();
      expect(existsSync(file), 'the damaged part file').toBe(false);
      expect(readEntry(path, 'k')).toBeUndefined();
    }
    expect(write(path, 'k', value)).toBe(true);
    expect(readEntry(path, 'k')).toEqual(value);
    rmSync(file);
    expect(openEntry(path, 'k')).toBeUndefined();
    // The header damaged as an entry stored whole would be: every way is a miss.
    write(path, 'k', value);
    for (const bad of damaged(readFileSync(path))) {
      writeFileSync(path, bad);
      expect(openEntry(path, 'k')).toBeUndefined();
    }
  });

  it('a part given with a hash that is not its bytes is a miss when the entry is opened', () => {
    const dir = tempDir();
    const path = join(dir, 'check-a.bin');
    write(path, 'k', value);
    const entry = openEntry(path, 'k')!;
    const copy = join(dir, 'check-b.bin');
    expect(writeEntryParts(copy, 'k', 1, () => storedPart(Buffer.from('other bytes'), createHash('sha256').update('x').digest('hex')), APART)).toBe(true);
    expect(openEntry(copy, 'k')).toBeUndefined();
    entry.close();
  });

  it('delete the part files no kept entry names once they are a minute old, and keep those a kept entry names', () => {
    const dir = tempDir();
    const a = join(dir, 'check-a.bin');
    const b = join(dir, 'check-b.bin');
    write(a, 'k', [Buffer.from('shared'), Buffer.from('a only')]);
    write(b, 'k', [Buffer.from('shared'), Buffer.from('b before')]);
    // An entry stored whole beside them names no part file.
    const whole = join(dir, 'check-c.bin');
    writeEntry(whole, 'k', [Buffer.from('b after')]);
    const old = new Date(Date.now() - 5 * 60_000);
    for (const name of parts(dir)) utimesSync(join(dir, PARTS_FOLDER, name), old, old);
    writeFileSync(join(dir, PARTS_FOLDER, 'left-by-a-killed-writer.tmp'), 'x');
    utimesSync(join(dir, PARTS_FOLDER, 'left-by-a-killed-writer.tmp'), old, old);
    write(b, 'k', [Buffer.from('shared'), Buffer.from('b after')]);
    const hash = (s: string) => `${createHash('sha256').update(s).digest('hex')}.part`;
    expect(parts(dir)).toEqual([hash('shared'), hash('a only'), hash('b after')].sort());
    expect(readEntry(a, 'k')).toEqual([Buffer.from('shared'), Buffer.from('a only')]);
    expect(readEntry(b, 'k')).toEqual([Buffer.from('shared'), Buffer.from('b after')]);
    expect(readEntry(whole, 'k')).toEqual([Buffer.from('b after')]);
  });

  it('take a known part as its file when it is there, not making it; make it again when it is not, or when stored whole', () => {
    const dir = tempDir();
    const path = join(dir, 'check-a.bin');
    write(path, 'k', value);
    const entry = openEntry(path, 'k')!;
    const known = (i: number, bytes: Buffer) => ({ sha256: entry.stored(i).sha256, length: entry.stored(i).length, make: () => (asked.push(i), bytes) });
    const asked: number[] = [];
    const file = join(dir, PARTS_FOLDER, `${entry.stored(0).sha256}.part`);
    const mtime = statSync(file, { bigint: true }).mtimeNs;
    expect(writeEntryParts(path, 'k', 3, (i) => (i === 1 ? Buffer.from('new') : known(i, value[i])), APART)).toBe(true);
    expect(asked).toEqual([]);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(mtime);
    expect(readEntry(path, 'k')).toEqual([value[0], Buffer.from('new'), value[2]]);
    // Its file gone, a known part is made again and named by the bytes made.
    rmSync(file);
    expect(writeEntryParts(path, 'k', 3, (i) => known(i, i === 0 ? Buffer.from('made again') : value[i]), APART)).toBe(true);
    expect(asked).toEqual([0]);
    expect(readEntry(path, 'k')).toEqual([Buffer.from('made again'), value[1], value[2]]);
    // An entry stored whole holds its parts' bytes: each known part is made.
    const whole = join(dir, 'check-b.bin');
    asked.length = 0;
    expect(writeEntryParts(whole, 'k', 3, (i) => known(i, value[i]))).toBe(true);
    expect(asked).toEqual([0, 1, 2]);
    expect(readEntry(whole, 'k')).toEqual(value);
    entry.close();
  });

  it("keep the entries and parts of another folder's kind of entry when told which files are its entries", () => {
    const dir = tempDir();
    const records = { match: (name: string) => name.endsWith('.bin') && !name.startsWith('check-'), keep: 2 };
    const writeRecord = (name: string, text: string) => writeEntryParts(join(dir, name), 'k', 1, () => Buffer.from(text), { apart: true, entries: records });
    writeRecord('one.bin', 'one');
    writeRecord('two.bin', 'two');
    const old = new Date(Date.now() - 5 * 60_000);
    for (const name of [...parts(dir), 'one.bin']) utimesSync(join(dir, name.endsWith('.part') ? PARTS_FOLDER : '', name), old, old);
    // A third entry: the oldest goes, and the part only it named; the check's default would have kept none of them.
    writeRecord('three.bin', 'three');
    expect(readdirSync(dir).sort()).toEqual([PARTS_FOLDER, 'three.bin', 'two.bin']);
    const hash = (s: string) => `${createHash('sha256').update(s).digest('hex')}.part`;
    expect(parts(dir)).toEqual([hash('three'), hash('two')].sort());
    expect(readEntry(join(dir, 'two.bin'), 'k')).toEqual([Buffer.from('two')]);
  });
});

describe('codeFingerprint', () => {
  it('hashes the code once per process, and again on request', () => {
    const code = codeFingerprint();
    expect(code).toMatch(/^[0-9a-f]{64}$/);
    expect(codeFingerprint()).toBe(code);
    expect(codeFingerprint(true)).toBe(code);
  });
});

describe('defaultCacheDir', () => {
  it('is node_modules/.cache/site of the nearest package, and undefined outside any', () => {
    const root = resolve(import.meta.dirname, '../..');
    expect(defaultCacheDir(join(root, 'src/load'), {})).toBe(join(root, 'node_modules/.cache/site'));
    const outside = tempDir();
    mkdirSync(join(outside, 'a/b'), { recursive: true });
    // tmpdir() has no package.json above it on any machine these tests run on.
    expect(defaultCacheDir(join(outside, 'a/b'), {})).toBeUndefined();
  });
  it('is $SITE_CACHE_DIR when set, relative to the working folder', () => {
    const outside = tempDir();
    expect(defaultCacheDir(outside, { SITE_CACHE_DIR: 'ci-cache' })).toBe(join(outside, 'ci-cache'));
    expect(defaultCacheDir(outside, { SITE_CACHE_DIR: '/var/cache/site' })).toBe('/var/cache/site');
  });
});

/**
 * The fingerprint hashes the code in CODE_DIRS and the versions of
 * CODE_PACKAGES; a cached result is only right if nothing else decides it.
 */
describe('the code behind a cached result', () => {
  it('imports nothing at run time outside the fingerprinted folders and packages', () => {
    const src = resolve(import.meta.dirname, '../../src');
    const allowedDirs = CODE_DIRS.map((d) => resolve(src, 'load', d));
    const offenders: string[] = [];
    for (const dir of ['load', 'check']) {
      for (const name of readdirSync(join(src, dir)).filter((n) => n.endsWith('.ts'))) {
        const text = readFileSync(join(src, dir, name), 'utf8');
        const specifiers = [
          ...[...text.matchAll(/^import\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]),
          ...[...text.matchAll(/import\('([^']+)'\)/g)].map((m) => m[1]),
          ...[...text.matchAll(/^export\s+(?!type\s)[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]),
          ...[...text.matchAll(/\)\('([^']+)'\)/g)].map((m) => m[1]), // createRequire(…)('pkg')
        ];
        for (const s of specifiers) {
          if (s.startsWith('node:')) continue;
          if (s.startsWith('.')) {
            if (!allowedDirs.includes(dirname(resolve(src, dir, s)))) offenders.push(`${dir}/${name} → ${s}`);
          } else if (!(CODE_PACKAGES as readonly string[]).includes(s)) offenders.push(`${dir}/${name} → ${s}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
