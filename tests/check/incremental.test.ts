/**
 * The incremental check (src/check/run.ts, src/check/state.ts): after any
 * sequence of edits to a copy of the shipped data/, a check that reuses its
 * cache gives exactly what a check from scratch gives, lean and whole, and
 * validates only the files whose bytes changed.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/catalogue/util.js';
import { checkDataDir, type CheckResult } from '../../src/check/run.js';
import type { Catalogue } from '../../src/core/catalogue.js';
import { isSettled, RACY_NS } from '../../src/load/file-stat.js';
import { PARTS_FOLDER } from '../../src/load/cache.js';

const DATA = resolve(import.meta.dirname, '../../data');
const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
function copyOfData(): string {
  const data = join(tempDir('site-incremental-'), 'data');
  cpSync(DATA, data, { recursive: true });
  return data;
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Long enough for every file written before it to have a settled stat (src/load/file-stat.ts). */
const settle = () => sleep(Number(RACY_NS / 1_000_000n) + 200);

/** The part of a catalogue that toEqual cannot see: each entity's file (a WeakMap) and body reference. */
function hidden(c: Catalogue): unknown {
  const all = [c.site, c.routes, ...c.routes, ...c.categories, ...c.products, ...c.articles, ...c.news, ...c.pages];
  return { sources: all.map((e) => c.sourceOf.get(e)), bodies: [...c.products, ...c.articles, ...c.news].map((e) => c.bodies?.get(e)) };
}

function expectSame(actual: CheckResult, expected: CheckResult, step: string): void {
  expect(actual.diagnostics, step).toEqual(expected.diagnostics);
  expect(actual.routes, step).toEqual(expected.routes);
  expect(actual.sizes, step).toEqual(expected.sizes);
  expect(actual.catalogue === null, step).toBe(expected.catalogue === null);
  if (actual.catalogue && expected.catalogue) {
    // valueDigests: the hashes a check that keeps its results adds (tests/check/value-digests.test.ts).
    const { sourceOf: _a, bodies: _ab, valueDigests: _ad, ...a } = actual.catalogue;
    const { sourceOf: _b, bodies: _bb, valueDigests: _bd, ...b } = expected.catalogue;
    expect(a, step).toEqual(b);
    expect(hidden(actual.catalogue), step).toEqual(hidden(expected.catalogue));
  }
}

const SITE_EDITS = ['textChars', 'fileBytes', 'fileBytes', 'name', 'textChars', 'itemsPerPage'] as const;
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8'));
const writeJson = (file: string, value: Json) => writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The edits a content editor makes; each returns what it did, and how many files' bytes it changed at most. */
function editor(data: string, rand: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const files = (dir: string) => readdirSync(join(data, dir)).filter((n) => n.endsWith('.json'));
  /** A random data file of one of `dirs`, and its parsed JSON. */
  const pickDoc = <D extends string>(dirs: readonly D[]) => {
    const dir = pick(dirs);
    const name = pick(files(dir));
    const file = join(data, dir, name);
    return { dir, name, file, doc: readJson(file) };
  };
  const broken = new Map<string, Buffer>();
  let serial = 0;
  let siteEdits = 0;
  return {
    editBody(): string {
      const { dir, name, file, doc } = pickDoc(['articles', 'products', 'news'] as const);
      const field = dir === 'products' ? 'description' : 'body';
      // A link in the text: the check's link rules read it from the body (a lean load keeps it in the BodyRef).
      const href = pick(['/products', '/no-such-page', 'https://example.com/x', 'javascript:alert(1)']);
      doc[field] = [...(doc[field] ?? []), { type: 'paragraph', text: [`Edit ${++serial} `, { text: 'see', href }] }];
      writeJson(file, doc);
      return `body of ${dir}/${name} (link ${href})`;
    },
    /** Text with no link: what the cross-file rules read of a lean load is unchanged (the value without its body, the links). */
    editText(): string {
      const { dir, name, file, doc } = pickDoc(['articles', 'products', 'news'] as const);
      const field = dir === 'products' ? 'description' : 'body';
      const blocks = [...(doc[field] ?? [])];
      // Anywhere: a link after it moves to another pointer.
      blocks.splice(Math.floor(rand() * (blocks.length + 1)), 0, { type: 'paragraph', text: `Plain edit ${++serial}` });
      doc[field] = blocks;
      writeJson(file, doc);
      return `text of ${dir}/${name}`;
    },
    /** The same value in other bytes: every position in the file moves. */
    reformat(): string {
      const { dir, name, file, doc } = pickDoc(['articles', 'products', 'categories'] as const);
      writeFileSync(file, `\n${JSON.stringify(doc, null, 4 + (serial++ % 3))}\n`);
      return `reformatted ${dir}/${name}`;
    },
    editName(): string {
      const { dir, name, file, doc } = pickDoc(['articles', 'products', 'categories'] as const);
      const field = dir === 'articles' ? 'headline' : 'name';
      doc[field] = rand() < 0.2 ? '' : `${doc[field]} ${++serial}`;
      writeJson(file, doc);
      return `${field} of ${dir}/${name}`;
    },
    breakJson(): string {
      const dir = pick(['articles', 'products', 'pages'] as const);
      const name = pick(files(dir));
      const file = join(data, dir, name);
      const bytes = readFileSync(file);
      broken.set(file, bytes);
      writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
      return `broke ${dir}/${name}`;
    },
    fixJson(): string {
      const [file, bytes] = [...broken][0] ?? [];
      if (!file) return 'nothing to fix';
      broken.delete(file);
      writeFileSync(file, bytes!);
      return `fixed ${file}`;
    },
    addProduct(): string {
      const name = pick(files('products'));
      const doc = readJson(join(data, 'products', name));
      serial++;
      doc.id = `${doc.id.slice(0, 24)}${String(serial).padStart(8, '0')}`;
      doc.slug = `${doc.slug}-copy-${serial}`;
      writeJson(join(data, 'products', `${doc.slug}.json`), doc);
      return `added products/${doc.slug}.json`;
    },
    deleteProduct(): string {
      const name = pick(files('products'));
      rmSync(join(data, 'products', name));
      return `deleted products/${name}`;
    },
    renameFile(): string {
      const dir = pick(['articles', 'products'] as const);
      const name = pick(files(dir));
      renameSync(join(data, dir, name), join(data, dir, `renamed-${++serial}-${name}`));
      return `renamed ${dir}/${name}`;
    },
    editSite(): string {
      const file = join(data, 'site.json');
      const doc = readJson(file);
      // In turn, so that a short sequence sets and clears each limit (after fileBytes, a file over it: nothing is cached).
      const what = SITE_EDITS[siteEdits++ % SITE_EDITS.length];
      if (what === 'name') doc.name = `${doc.name} ${++serial}`;
      // Limits change what validating every other file gives: long texts become warnings, large files errors.
      else if (what === 'textChars') doc.limits = { ...doc.limits, textChars: doc.limits?.textChars === 400 ? 100_000 : 400 };
      else if (what === 'fileBytes') doc.limits = { ...doc.limits, fileBytes: doc.limits?.fileBytes === 6000 ? 5 * 1024 * 1024 : 6000 };
      else doc.itemsPerPage = { ...doc.itemsPerPage, products: (doc.itemsPerPage?.products ?? 12) + 1 };
      writeJson(file, doc);
      return `site.json ${what}`;
    },
    editRoutes(): string {
      const file = join(data, 'routes.json');
      const routes = readJson(file) as Json[];
      const i = Math.floor(rand() * routes.length);
      const what = pick(['title', 'remove', 'repeat'] as const);
      if (what === 'title') routes[i].meta.title = `${routes[i].meta.title} ${++serial}`;
      else if (what === 'remove') routes.splice(i, 1);
      else routes.push({ ...routes[i] });
      writeJson(file, routes);
      return `routes.json: ${what} /${i}`;
    },
    touch(): string {
      const name = pick(files('articles'));
      const file = join(data, 'articles', name);
      writeFileSync(file, readFileSync(file)); // same bytes, new times
      return `rewrote articles/${name} unchanged`;
    },
  };
}

/**
 * A random sequence of edits, each followed by an incremental check and a check from scratch, lean and whole.
 * With `held`, the incremental checks keep their results in memory between runs (CheckDataDirOptions.memory),
 * as `site build --watch` does.
 */
async function randomEdits(held: boolean): Promise<void> {
  const seed = Number(process.env.SITE_TEST_SEED) || 21;
  const rand = mulberry32(seed);
  const data = copyOfData();
  const cacheDir = tempDir('site-incremental-cache-');
  const edit = editor(data, rand);
  const ops = Object.keys(edit) as Array<keyof typeof edit>;
  // Every kind of edit at least once (site.json's three times: see SITE_EDITS), in random order, then a few at random.
  const planned = [...ops, 'editSite', 'editSite', 'fixJson'] as Array<keyof typeof edit>;
  for (let i = planned.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [planned[i], planned[j]] = [planned[j], planned[i]];
  }
  const schedule = [...planned, ...Array.from({ length: 3 }, () => ops[Math.floor(rand() * ops.length)])];
  const files = readdirSync(data, { recursive: true }).filter((n) => String(n).endsWith('.json')).length;

  // One memory for each entry (lean and whole), as a process that checks both would keep.
  const memories = new Map([true, false].map((lean) => [lean, held ? {} : undefined]));
  // The last incremental catalogue of each: a check that took results from memory shares their entities.
  const last = new Map<boolean, Catalogue | null>();
  // Let the copy's stats settle once, so that unchanged files are then taken unread.
  await settle();
  for (const lean of [true, false]) last.set(lean, (await checkDataDir(data, { cacheDir, lean, memory: memories.get(lean) })).catalogue);
  let step = `seed ${seed}, no edit`;
  let findingsKept = 0;
  for (let n = 0; n <= schedule.length; n++) {
    for (const lean of [true, false]) {
      const incremental = await checkDataDir(data, { cacheDir, lean, memory: memories.get(lean) });
      const scratch = await checkDataDir(data, { cacheDir: false, lean });
      expectSame(incremental, scratch, `${step} (${lean ? 'lean' : 'whole'})`);
      const before = last.get(lean);
      if (incremental.catalogue && before && incremental.reused > 0) {
        const kept = new Set<unknown>(before.articles);
        expect(
          incremental.catalogue.articles.some((a) => kept.has(a)),
          `${step}: entities shared with the last check`,
        ).toBe(held);
      }
      last.set(lean, incremental.catalogue);
      expect(incremental.validated + incremental.reused, step).toBe(scratch.validated);
      expect(scratch.reused).toBe(0);
      if (step.endsWith('no edit')) expect(incremental.validated, step).toBe(0);
      // Only the edited file is validated again, unless site.json's limits changed (they are every file's context)
      // or a file is over them (then nothing is cached).
      const cached = incremental.key !== undefined;
      expect(cached, step).toBe(!scratch.diagnostics.some((d) => d.code === 'load/file-too-large'));
      if (cached && !step.includes('site.json')) expect(incremental.validated, step).toBeLessThanOrEqual(1);
      expect(incremental.read, step).toBeLessThan(files / 2);
      if (incremental.findingsKept) findingsKept++;
    }
    if (n < schedule.length) step = `seed ${seed}, step ${n}: ${edit[schedule[n]]()}`;
  }
  // The edits that keep the rules' input (editText when lean, reformat) at least once each, and a run after them.
  expect(findingsKept, `seed ${seed}`).toBeGreaterThan(0);
}

describe('the incremental check', () => {
  it('gives after every edit of a random sequence exactly what a check from scratch gives, lean and whole', async () => {
    await randomEdits(false);
  }, 120_000);

  it('gives the same with its results held in memory between checks, as `site build --watch` holds them', async () => {
    await randomEdits(true);
  }, 120_000);

  it('with its results held in memory, still finds the broken links of a body it did not validate again', async () => {
    const data = copyOfData();
    const cacheDir = tempDir('site-incremental-cache-');
    const memory = {};
    await checkDataDir(data, { cacheDir, lean: true, memory });
    const linked = join(data, 'articles', readdirSync(join(data, 'articles'))[0]);
    const doc = readJson(linked);
    doc.body = [...doc.body, { type: 'paragraph', text: ['See ', { text: 'this', href: '/no-such-page' }] }];
    writeJson(linked, doc);
    const broken = (r: CheckResult) => r.diagnostics.filter((d) => d.code === 'check/broken-link' && d.file.endsWith(linked.slice(data.length)));
    const first = await checkDataDir(data, { cacheDir, lean: true, memory });
    expect(broken(first)).toHaveLength(1);
    // Another file edited: the linked article's result comes from memory, its links with it.
    const other = join(data, 'products', readdirSync(join(data, 'products'))[0]);
    writeJson(other, { ...readJson(other), name: 'Renamed in memory' });
    const second = await checkDataDir(data, { cacheDir, lean: true, memory });
    expect(second.validated).toBe(1);
    expect(broken(second)).toHaveLength(1);
    expectSame(second, await checkDataDir(data, { cacheDir: false, lean: true }), 'another file edited');
  }, 30_000);

  it('does not read a file whose stat is settled and unchanged, and reads again one written just before the check', async () => {
    const data = copyOfData();
    const cacheDir = tempDir('site-incremental-cache-');
    const first = await checkDataDir(data, { cacheDir, lean: true });
    expect(first.read).toBe(first.validated);
    // Copied within RACY_NS of the check: their stats cannot vouch for the bytes yet.
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBeGreaterThan(1);
    await settle();
    // Read once more, now that they have aged (the run stores their stats though nothing changed); from then on their stats vouch for them.
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBeGreaterThan(1);
    const quiet = await checkDataDir(data, { cacheDir, lean: true });
    expect(quiet.read).toBe(1); // site.json, which is always read
    expect(quiet.validated).toBe(0);
    // Nothing new to record: the entry is read, not written again.
    const entries = () => readdirSync(cacheDir).filter((n) => n !== PARTS_FOLDER);
    const [entry] = entries();
    const ino = statSync(join(cacheDir, entry)).ino;
    const parts = readdirSync(join(cacheDir, PARTS_FOLDER));
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBe(1);
    expect(entries()).toEqual([entry]);
    expect(readdirSync(join(cacheDir, PARTS_FOLDER))).toEqual(parts);
    expect(statSync(join(cacheDir, entry)).ino).toBe(ino);

    const file = join(data, 'articles', readdirSync(join(data, 'articles'))[0]);
    writeJson(file, { ...readJson(file), headline: 'Racily clean' });
    const racy = await checkDataDir(data, { cacheDir, lean: true });
    expect([racy.read, racy.validated]).toEqual([2, 1]);
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBe(2); // still too new to vouch for itself
    await settle();
    await checkDataDir(data, { cacheDir, lean: true });
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBe(1);
  }, 30_000);

  it("stores the results a few hundred files to a part, and after one file's edit writes its part again, not the others", async () => {
    const data = copyOfData();
    const cacheDir = tempDir('site-incremental-cache-');
    const first = await checkDataDir(data, { cacheDir, lean: true });
    const partFiles = () => new Map(readdirSync(join(cacheDir, PARTS_FOLDER)).map((n) => [n, statSync(join(cacheDir, PARTS_FOLDER, n)).size]));
    const before = partFiles();
    // The file table, the diagnostics, the routes, then the results: the data's JSON files 256 to a part.
    expect(before.size).toBe(3 + Math.ceil(first.read / 256));
    const file = join(data, 'articles', readdirSync(join(data, 'articles'))[0]);
    writeJson(file, { ...readJson(file), headline: 'Edited once' });
    await checkDataDir(data, { cacheDir, lean: true });
    const added = [...partFiles()].filter(([name]) => !before.has(name));
    // The file table (every file's stat) and the edited file's part; the routes' and diagnostics' parts are the same
    // bytes. Written again, the one part is a small share of the results.
    expect(added.length).toBeLessThanOrEqual(3);
    const bytes = (sizes: Iterable<number>) => [...sizes].reduce((a, b) => a + b, 0);
    expect(bytes(added.map(([, size]) => size))).toBeLessThan(bytes(before.values()) / 4);
  }, 30_000);

  it('notices bytes changed under an old modification time: the change time moves', async () => {
    const data = copyOfData();
    const cacheDir = tempDir('site-incremental-cache-');
    await settle();
    await checkDataDir(data, { cacheDir, lean: true });
    expect((await checkDataDir(data, { cacheDir, lean: true })).read).toBe(1);

    const file = join(data, 'products', readdirSync(join(data, 'products'))[0]);
    const ref = join(tempDir('site-incremental-ref-'), 'ref');
    writeFileSync(ref, '');
    execFileSync('touch', ['-r', file, ref]); // its times, to the nanosecond (utimes in node rounds them)
    const before = statSync(file, { bigint: true });
    const text = readFileSync(file, 'utf8');
    // "id": "<hex>" → a character that is not hex: same size, an error, and the old modification time put back.
    const changed = text.replace(/("id":\s*")(.)/, (_, head: string, c: string) => `${head}${c === 'z' ? 'y' : 'z'}`);
    expect(changed.length).toBe(text.length);
    writeFileSync(file, changed);
    execFileSync('touch', ['-r', ref, file]);
    expect(statSync(file, { bigint: true }).mtimeNs).toBe(before.mtimeNs);

    const after = await checkDataDir(data, { cacheDir, lean: true });
    expect(after.read).toBe(2);
    expectSame(after, await checkDataDir(data, { cacheDir: false, lean: true }), 'same size, old mtime');
    expect(after.diagnostics.some((d) => d.severity === 'error' && d.file.endsWith(file.slice(data.length)))).toBe(true);
  }, 30_000);

  it('with `later`, writes its cache entry only when the write it handed over runs, and keeps the links until then', async () => {
    const data = copyOfData();
    const cacheDir = join(tempDir('site-incremental-cache-'), 'cache');
    const writes: Array<() => void> = [];
    const first = await checkDataDir(data, { cacheDir, lean: true, later: (write) => void writes.push(write) });
    expect(writes).toHaveLength(1);
    const entries = () => (existsSync(cacheDir) ? readdirSync(cacheDir, { recursive: true }).map(String) : []);
    expect(entries()).toEqual([]);
    // The bodies' links are what the entry stores for the next check's link rules: still there until written.
    const bodies = [...first.catalogue!.articles].map((a) => first.catalogue!.bodies!.get(a)!);
    expect(bodies.some((b) => b.links.length > 0)).toBe(true);
    writes[0]();
    expect(entries().length).toBeGreaterThan(0);
    expect(bodies.every((b) => b.links.length === 0)).toBe(true);
    const second = await checkDataDir(data, { cacheDir, lean: true });
    expect(second.reused).toBe(second.validated + second.reused);
    expectSame(second, await checkDataDir(data, { cacheDir: false, lean: true }), 'after the handed-over write');
  }, 30_000);

  it("keeps the cross-file rules' findings when their input is unchanged, and moves them with the bytes", async () => {
    const data = copyOfData();
    const cacheDir = tempDir('site-incremental-cache-');
    const article = join(data, 'articles', readdirSync(join(data, 'articles')).sort()[3]);
    const doc = readJson(article);
    doc.body = [...doc.body, { type: 'paragraph', text: ['See ', { text: 'this', href: '/no-such-page' }] }];
    writeJson(article, doc);
    const broken = (r: CheckResult) => r.diagnostics.filter((d) => d.code === 'check/broken-link' && d.file.endsWith(article.slice(data.length)));
    for (const lean of [true, false]) {
      const first = await checkDataDir(data, { cacheDir, lean });
      expect(first.findingsKept).toBeUndefined();
      expect(broken(first)).toHaveLength(1);
      // The same value in other bytes: the finding is kept, at its new line.
      writeFileSync(article, `\n\n${JSON.stringify(doc, null, 3)}\n`);
      const moved = await checkDataDir(data, { cacheDir, lean });
      expect([moved.validated, moved.findingsKept]).toEqual([1, true]);
      expect(broken(moved)[0].line).toBeGreaterThan(broken(first)[0].line! + 1);
      const scratch = await checkDataDir(data, { cacheDir: false, lean });
      expectSame(moved, scratch, `reformatted (${lean ? 'lean' : 'whole'})`);
      // The report stored with kept findings (its routes copied from the entry before) is the one the next run reuses.
      const again = await checkDataDir(data, { cacheDir, lean });
      expect([again.validated, again.findingsKept]).toEqual([0, undefined]);
      expectSame(again, scratch, `reformatted, run again (${lean ? 'lean' : 'whole'})`);
      // Text without a link, before the link: a lean load's rules read nothing of it but the link's new pointer; a
      // whole load's value changed.
      doc.body = [{ type: 'paragraph', text: `A new first paragraph (${lean})` }, ...doc.body];
      writeJson(article, doc);
      const text = await checkDataDir(data, { cacheDir, lean });
      expect(text.findingsKept).toBe(lean ? true : undefined);
      expect(broken(text).map((d) => d.pointer)).toEqual([`/body/${doc.body.length - 1}/text/1/href`]);
      expectSame(text, await checkDataDir(data, { cacheDir: false, lean }), `text edited (${lean ? 'lean' : 'whole'})`);
      doc.body = doc.body.slice(1);
      writeJson(article, doc);
      await checkDataDir(data, { cacheDir, lean });
    }
    // A name the rules read, routes.json (no value hash), a file added: the rules run again.
    const product = join(data, 'products', readdirSync(join(data, 'products')).sort()[0]);
    writeJson(product, { ...readJson(product), name: 'Renamed' });
    expect((await checkDataDir(data, { cacheDir, lean: true })).findingsKept).toBeUndefined();
    writeFileSync(join(data, 'routes.json'), `${JSON.stringify(readJson(join(data, 'routes.json')), null, 4)}\n`);
    const routes = await checkDataDir(data, { cacheDir, lean: true });
    expect(routes.findingsKept).toBeUndefined();
    expectSame(routes, await checkDataDir(data, { cacheDir: false, lean: true }), 'routes.json reformatted');
    writeJson(join(data, 'articles', 'zz-new.json'), { ...doc, id: `${doc.id.slice(0, 24)}ffffffff`, slug: 'zz-new' });
    expect((await checkDataDir(data, { cacheDir, lean: true })).findingsKept).toBeUndefined();
  }, 60_000);

  it('does everything from scratch with cacheDir: false', async () => {
    const data = copyOfData();
    const result = await checkDataDir(data, { cacheDir: false, lean: true });
    expect(result.reused).toBe(0);
    expect(result.validated).toBe(result.read);
    expect(result.key).toBeUndefined();
  });
});

describe('isSettled', () => {
  const stat = (mtimeNs: bigint, ctimeNs: bigint) => ({ dev: 1n, ino: 2n, size: 3n, mtimeNs, ctimeNs });
  const readAt = 1_700_000_000_000_000_000n;
  it('trusts a stat only when both its times are older than the read by more than RACY_NS', () => {
    expect(isSettled(stat(readAt - RACY_NS - 1n, readAt - RACY_NS - 1n), readAt)).toBe(true);
    expect(isSettled(stat(readAt - RACY_NS, readAt - RACY_NS - 1n), readAt)).toBe(false);
    expect(isSettled(stat(readAt - RACY_NS - 1n, readAt - 1n), readAt)).toBe(false); // an old mtime put back on new bytes
    expect(isSettled(stat(readAt + 1n, readAt + 1n), readAt)).toBe(false);
  });
});
