/**
 * The build record's collector (src/emit/incremental/record.ts): pages taken
 * over keep their entries as they are, pages rendered are added to the same
 * tables, and a record whose tables are a tenth or more unused is compacted.
 * Whatever the path, every entry names the same strings as the pages read.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { readOutputRecord, RecordCollector, writeRecord, type BuildRecord, type RecordedEntry } from '../../src/emit/incremental/record.js';
import type { PageFacts, PageRecords } from '../../src/emit/threads/protocol.js';
import type { PlannedRoute } from '../../src/emit/types.js';

const facts = (index: number): PageFacts => ({
  index,
  bytes: 100 + index,
  canonical: `https://example.com/p${index}`,
  indexable: true,
  lastmod: '2026-11-27',
  metaFallback: [],
});
const plan = (n: number): PlannedRoute[] =>
  Array.from({ length: n }, (_, index) => ({ index, route: { path: `/p${index}` } as PlannedRoute['route'], file: `p${index}/index.html` }));
const keyOf = (p: PlannedRoute) => `key:${p.route.path}`;

/** What each entry says in strings: the names it read, its targets, its group's targets. */
function spelled(record: Omit<BuildRecord, 'folder' | 'format'>) {
  const digestOf = new Map(record.names.map((n, i) => [n, record.digests[i]]));
  return record.entries.map((e: RecordedEntry) => ({
    file: e.file,
    stamp: e.stamp,
    reads: Array.from(e.reads, (r) => record.names[r]),
    digests: Array.from(e.reads, (r) => record.digests[r]).every((d, i) => d === digestOf.get(record.names[e.reads[i]])),
    internal: Array.from(e.internal, (t) => record.targets[t]),
    group: e.group < 0 ? null : record.groups[e.group].map((t) => record.targets[t]),
  }));
}

/** A record of `n` pages rendered from scratch: page i reads `shared`, `own-i`, links to /p(i+1) and shares the header's links. */
function firstRecord(n: number, extra: (i: number) => string[] = () => []): Omit<BuildRecord, 'folder' | 'format'> {
  const collector = new RecordCollector(plan(n), keyOf);
  const names = ['shared', ...Array.from({ length: n }, (_, i) => `own-${i}`), ...Array.from({ length: n }, (_, i) => extra(i)).flat()];
  const batch: PageRecords = {
    names,
    groups: [['/', '/contact-us']],
    pages: Array.from({ length: n }, (_, i) => ({
      index: i,
      reads: [0, 1 + i, ...extra(i).map((x) => names.indexOf(x))],
      internal: [`/p${(i + 1) % n}`],
      group: 0,
      unsafe: [],
      digest: `d${i}`,
    })),
  };
  collector.addFacts(
    Array.from({ length: n }, (_, i) => facts(i)),
    Array.from({ length: n }, (_, i) => [i, `stamp-${i}`] as const),
  );
  collector.addBatch(batch);
  expect(collector.complete()).toBe(true);
  return collector.finish(
    'g',
    collector.unhashedNames().map((name) => `hash of ${name}`),
  );
}

describe('the build record collector', () => {
  test('a page taken over keeps its entry as it is; a page rendered again joins the same tables', () => {
    const n = 20;
    const previous = { ...firstRecord(n), folder: 'f', format: 'site-build-record/3' } as BuildRecord;
    const collector = new RecordCollector(plan(n), keyOf, previous);
    for (let i = 0; i < n; i++) if (i !== 2) collector.keep(i, previous.entries[i], `new-stamp-${i}`);
    collector.addFacts([facts(2)], [[2, 'new-stamp-2']]);
    collector.addBatch({
      names: ['shared', 'new-name'],
      groups: [['/', '/contact-us']],
      pages: [{ index: 2, reads: [0, 1], internal: ['/p3', '/new-target'], group: 0, unsafe: [], digest: 'd2b' }],
    });
    const record = collector.finish(
      'g',
      collector.unhashedNames().map((name) => `hash of ${name}`),
    );
    const pages = spelled(record);
    expect(pages.map((p) => p.stamp)).toEqual(Array.from({ length: n }, (_, i) => `new-stamp-${i}`));
    expect(pages[0]).toMatchObject({ reads: ['shared', 'own-0'], internal: ['/p1'], group: ['/', '/contact-us'], digests: true });
    expect(pages[2]).toMatchObject({ reads: ['shared', 'new-name'], internal: ['/p3', '/new-target'], group: ['/', '/contact-us'] });
    // Taken over as it was: the same positions, not a copy of them.
    expect(record.entries[0].reads).toBe(previous.entries[0].reads);
    expect(record.entries[0].internal).toBe(previous.entries[0].internal);
    // own-2 is read by no page now, one name in 22: it stays, under the share that compacts the record.
    expect(record.names).toContain('own-2');
    expect(record.names.slice(0, previous.names.length)).toEqual(previous.names);
    expect(record.digests).toEqual(record.names.map((name) => `hash of ${name}`));
  });

  test('a record whose names are a tenth or more unused is compacted, every entry still naming what it read', () => {
    const n = 20;
    const previous = { ...firstRecord(n, (i) => [`detail-${i}-a`, `detail-${i}-b`]), folder: 'f', format: 'site-build-record/3' } as BuildRecord;
    // Half the pages are rendered again and read only `shared`: their own and detail names go unused.
    const collector = new RecordCollector(plan(n), keyOf, previous);
    const again = Array.from({ length: n / 2 }, (_, k) => 2 * k);
    for (let i = 0; i < n; i++) if (!again.includes(i)) collector.keep(i, previous.entries[i], `stamp-${i}`);
    collector.addFacts(
      again.map((i) => facts(i)),
      again.map((i) => [i, `stamp-${i}`] as const),
    );
    collector.addBatch({
      names: ['shared'],
      groups: [],
      pages: again.map((i) => ({ index: i, reads: [0], internal: [], group: -1, unsafe: [], digest: `e${i}` })),
    });
    const record = collector.finish(
      'g',
      collector.unhashedNames().map((name) => `hash of ${name}`),
    );
    expect(record.names.length).toBeLessThan(previous.names.length);
    expect(record.names).not.toContain('own-0');
    expect(record.names).toContain('own-1');
    expect(record.digests).toEqual(record.names.map((name) => `hash of ${name}`));
    const pages = spelled(record);
    for (let i = 0; i < n; i++) {
      if (again.includes(i)) expect(pages[i]).toMatchObject({ reads: ['shared'], internal: [], group: null });
      else
        expect(pages[i]).toMatchObject({
          reads: ['shared', `own-${i}`, `detail-${i}-a`, `detail-${i}-b`],
          internal: [`/p${(i + 1) % n}`],
          group: ['/', '/contact-us'],
          digests: true,
        });
    }
  });
  test("given the selection's hashes of the last record's names, it asks only for the names added since", () => {
    const n = 6;
    const previous = { ...firstRecord(n), folder: 'f', format: 'site-build-record/3' } as BuildRecord;
    const now = previous.names.map((name) => `now ${name}`);
    const collector = new RecordCollector(plan(n), keyOf, previous, { digests: now });
    for (let i = 1; i < n; i++) collector.keep(i, previous.entries[i], `stamp-${i}`);
    collector.addFacts([facts(0)], [[0, 'stamp-0']]);
    collector.addBatch({
      names: ['shared', 'own-0', 'added'],
      groups: [],
      pages: [{ index: 0, reads: [0, 1, 2], internal: [], group: -1, unsafe: [], digest: 'd0b' }],
    });
    expect(collector.unhashedNames()).toEqual(['added']);
    const record = collector.finish('g', ['hash of added']);
    expect(record.names).toEqual([...previous.names, 'added']);
    expect(record.digests).toEqual([...now, 'hash of added']);
    expect(spelled(record)[0]).toMatchObject({ reads: ['shared', 'own-0', 'added'], digests: true });
  });

  test('pages rendered again, told their last entries, get the positions a whole index of the tables gives', () => {
    const n = 40;
    const previous = { ...firstRecord(n, (i) => [`detail-${i}`]), folder: 'f', format: 'site-build-record/3' } as BuildRecord;
    const again = new Map([1, 2].map((i) => [i, previous.entries[i]] as const));
    const run = (seed: { again?: typeof again }) => {
      const collector = new RecordCollector(plan(n), keyOf, previous, seed);
      for (let i = 0; i < n; i++) if (!again.has(i)) collector.keep(i, previous.entries[i], `stamp-${i}`);
      collector.addFacts(
        [facts(1), facts(2)],
        [
          [1, 'stamp-1'],
          [2, 'stamp-2'],
        ],
      );
      // Page 1 reads what it did, in another order, and another page's name; page 2 reads a name no record has.
      collector.addBatch({
        names: ['detail-1', 'own-1', 'shared', 'own-7', 'brand-new'],
        groups: [['/contact-us', '/']],
        pages: [
          { index: 1, reads: [0, 1, 2, 3], internal: ['/p2', '/p9'], group: 0, unsafe: [], digest: 'x1' },
          { index: 2, reads: [2, 4], internal: ['/p3', '/elsewhere'], group: -1, unsafe: [], digest: 'x2' },
        ],
      });
      return collector.finish(
        'g',
        collector.unhashedNames().map((name) => `hash of ${name}`),
      );
    };
    const hinted = run({ again });
    expect(hinted).toEqual(run({}));
    const pages = spelled(hinted);
    expect(pages[1]).toMatchObject({ reads: ['detail-1', 'own-1', 'shared', 'own-7'], internal: ['/p2', '/p9'], group: ['/', '/contact-us'] });
    expect(pages[2]).toMatchObject({ reads: ['shared', 'brand-new'], internal: ['/p3', '/elsewhere'], group: null });
    expect(hinted.names.filter((name) => name === 'own-7')).toHaveLength(1);
    expect(hinted.targets.filter((t) => t === '/p9')).toHaveLength(1);
  });

  test('a record of more pages than a part of its file holds is read back as it was written; a damaged file, as none', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'site-record-'));
    const cache = path.join(work, 'cache');
    const out = path.join(work, 'dist');
    mkdirSync(out);
    const written = { ...firstRecord(20_000), global: 'g', registry: 'r' };
    writeRecord(cache, out, written);
    const read = readOutputRecord(cache, out)!;
    expect(read.entries).toHaveLength(20_000);
    expect(spelled(read)).toEqual(spelled(written));
    expect(read.entries.map((e) => [e.route, e.digest, e.facts, e.unsafe])).toEqual(written.entries.map((e) => [e.route, e.digest, e.facts, e.unsafe]));
    expect({ ...read, entries: [], stored: undefined }).toEqual({ ...written, entries: [], folder: expect.any(String), format: expect.any(String) });

    const [name] = readdirSync(path.join(cache, 'records')).filter((n) => n.endsWith('.bin'));
    const file = path.join(cache, 'records', name);
    const bytes = readFileSync(file);
    bytes[bytes.length - 100] ^= 1;
    writeFileSync(file, bytes);
    expect(readOutputRecord(cache, out)).toBeUndefined();
    rmSync(work, { recursive: true, force: true });
  });

  test('written again from the record it was read from, only the parts whose values changed are made; it reads back as written', () => {
    const work = mkdtempSync(path.join(tmpdir(), 'site-record-'));
    const cache = path.join(work, 'cache');
    const out = path.join(work, 'dist');
    mkdirSync(out);
    const n = 20_000;
    writeRecord(cache, out, { ...firstRecord(n), global: 'g' });
    const previous = readOutputRecord(cache, out)!;
    const partsDir = path.join(cache, 'records', 'entry-parts');
    const stats = () => new Map(readdirSync(partsDir).map((f) => [f, statSync(path.join(partsDir, f), { bigint: true }).mtimeNs]));
    const before = stats();
    // Page 3 rendered again (its entry and one name's digest change), the others taken over with their stamps.
    const collector = new RecordCollector(plan(n), keyOf, previous);
    for (let i = 0; i < n; i++) if (i !== 3) collector.keep(i, previous.entries[i], previous.entries[i].stamp);
    collector.addFacts([facts(3)], [[3, 'stamp-3b']]);
    collector.addBatch({
      names: ['shared', 'own-3'],
      groups: [['/', '/contact-us']],
      pages: [{ index: 3, reads: [0, 1], internal: ['/p4'], group: 0, unsafe: [], digest: 'd3b' }],
    });
    const digests = previous.names.map((name) => (name === 'own-3' ? 'changed' : `hash of ${name}`));
    const record = { ...collector.finish('g', []), digests, global: 'g' };
    writeRecord(cache, out, record, previous);
    const after = stats();
    const read = readOutputRecord(cache, out)!;
    expect(spelled(read)).toEqual(spelled(record));
    expect(read.digests).toEqual(digests);
    expect(read.entries.map((e) => e.digest)).toEqual(record.entries.map((e) => e.digest));
    // The head, one part of entries and one of digests are new; every other part is the same file as before.
    const made = [...after.keys()].filter((f) => !before.has(f));
    expect(made).toHaveLength(3);
    const kept = Object.values(read.stored!)
      .flat()
      .filter((p) => before.has(`${p.sha256}.part`));
    expect(kept.length).toBe(Object.values(read.stored!).flat().length - 2);
    for (const p of kept) expect(after.get(`${p.sha256}.part`)).toBe(before.get(`${p.sha256}.part`));

    // A part file gone (pruned, or another machine's cache) is made again from the values.
    rmSync(path.join(partsDir, `${read.stored!.entries[1].sha256}.part`));
    writeRecord(cache, out, record, read);
    expect(spelled(readOutputRecord(cache, out)!)).toEqual(spelled(record));
    rmSync(work, { recursive: true, force: true });
  });
});
