/**
 * A search shard updated from its previous version is the bytes of the same
 * shard indexed afresh, whatever the edits: bodies, titles, documents added,
 * removed and moved to another URL (which shifts every later position).
 */
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import MiniSearch from 'minisearch';
import { describe, expect, test } from 'vitest';
import { indexShard, type SearchDocument } from '../../src/emit/files/search-index.js';
import { makeShard, ParsedShards, updateShard } from '../../src/emit/files/search-update.js';
import { INDEX_OPTIONS, queryOptionsFor, type SearchIndexFile } from '../../src/core/search-options.js';

const WORDS = 'curcumin turmeric extract powder organic ginseng root leaf açaí berberine quercetin bulk sample kosher halal 95% 10:1'.split(' ');
const digest = (d: SearchDocument) => createHash('sha1').update(JSON.stringify(d)).digest('hex');

function generator(seed: number) {
  let s = seed;
  const rand = (n: number) => ((s = (s * 1103515245 + 12345) % 2 ** 31), s % n);
  const text = (words: number) => Array.from({ length: words }, () => WORDS[rand(WORDS.length)]).join(' ');
  let made = 0;
  const doc = (): SearchDocument => {
    // Words of one or two documents: `w<k>` in document k's title and document k+1's text, so that an edit
    // can leave a term without postings in one field, or in any.
    const t = `${text(5 + rand(60))} w${made - 1}`;
    const kind = (['product', 'article', 'news'] as const)[rand(3)];
    return { kind, url: `/${kind}/d-${made}`, title: `${text(1 + rand(4))} w${made++}`, text: t, excerpt: t.slice(0, 40) };
  };
  const sorted = (docs: SearchDocument[]) => docs.sort((a, b) => (a.url < b.url ? -1 : a.url > b.url ? 1 : 0));
  return { rand, text, doc, sorted };
}

describe('updateShard', () => {
  test('random edits, one to a few at a time: always the bytes of the shard indexed afresh', async () => {
    const g = generator(11);
    let docs = g.sorted(Array.from({ length: 120 }, g.doc));
    let shard = indexShard(docs);
    let updated = 0;
    for (let round = 0; round < 40; round++) {
      const next = [...docs];
      for (let k = 1 + g.rand(3); k > 0; k--) {
        const i = g.rand(next.length);
        const edit = g.rand(5);
        if (edit === 0) next[i] = { ...next[i], text: `${next[i].text} ${g.text(3)}` };
        else if (edit === 1) next[i] = { ...next[i], title: g.text(2) };
        else if (edit === 2) next.splice(i, 1);
        else if (edit === 3) next.push(g.doc());
        else next[i] = { ...next[i], url: `${next[i].url}-moved` };
      }
      g.sorted(next);
      const fresh = indexShard(next);
      const update = await updateShard({ contents: shard.contents, digests: docs.map(digest) }, next, next.map(digest));
      if (update !== null) {
        updated++;
        expect(update.contents).toBe(fresh.contents);
        expect(update.path).toBe(fresh.path);
      }
      docs = next;
      shard = fresh;
    }
    expect(updated).toBe(40);
  });

  test('from the shards a thread keeps parsed: the same bytes, update after update, each taken once', async () => {
    const g = generator(23);
    let docs = g.sorted(Array.from({ length: 80 }, g.doc));
    // Counts the updates that started from memory.
    const parsed = new (class extends ParsedShards {
      hits = 0;
      override take(key: string) {
        const held = super.take(key);
        if (held !== undefined) this.hits++;
        return held;
      }
    })(1024 * 1024);
    // No entry file: without the parsed shard, a task can only index afresh.
    const entry = path.join(tmpdir(), 'site-no-such-shard-entry.json');
    await makeShard({ docs, digests: docs.map(digest), key: 'k0' }, parsed);
    for (let round = 0; round < 12; round++) {
      const next = [...docs];
      const i = g.rand(next.length);
      next[i] = round % 3 === 2 ? { ...next[i], url: `${next[i].url}-moved` } : { ...next[i], text: `${next[i].text} ${g.text(4)}` };
      g.sorted(next);
      const made = await makeShard({ docs: next, digests: next.map(digest), key: `k${round + 1}`, previous: { key: `k${round}`, entry } }, parsed);
      expect(made).toEqual(indexShard(next));
      docs = next;
    }
    expect(parsed.hits).toBe(12);
    // Taken once: the update changes it in place.
    expect(parsed.take('k12')).toBeDefined();
    expect(parsed.take('k12')).toBeUndefined();
    // More than its allowance is not kept.
    const small = new ParsedShards(10);
    await makeShard({ docs, digests: docs.map(digest), key: 'k' }, small);
    expect(small.take('k')).toBeUndefined();
  });

  test('past a quarter of the shard changed it declines, and the caller indexes afresh', async () => {
    const g = generator(5);
    const docs = g.sorted(Array.from({ length: 40 }, g.doc));
    const previous = { contents: indexShard(docs).contents, digests: docs.map(digest) };
    const few = docs.map((d, i) => (i < 10 ? { ...d, text: `${d.text} changed` } : d));
    expect(await updateShard(previous, few, few.map(digest))).not.toBeNull();
    const many = docs.map((d, i) => (i < 11 ? { ...d, text: `${d.text} changed` } : d));
    expect(await updateShard(previous, many, many.map(digest))).toBeNull();
    expect(await updateShard({ ...previous, contents: '{"version":1' }, few, few.map(digest))).toBeNull();
    // A stored shard damaged in the cache (its ids gone, or its postings not what its documents say) is never fatal.
    const damaged = JSON.parse(previous.contents);
    damaged.index.documentIds = {};
    expect(await updateShard({ ...previous, contents: JSON.stringify(damaged) }, few, few.map(digest))).toBeNull();
    damaged.index = { ...JSON.parse(previous.contents).index, index: 'not a list' };
    expect(await updateShard({ ...previous, contents: JSON.stringify(damaged) }, few, few.map(digest))).toBeNull();
    damaged.index = { ...JSON.parse(previous.contents).index, index: [['curcumin', null]] };
    expect(await updateShard({ ...previous, contents: JSON.stringify(damaged) }, few, few.map(digest))).toBeNull();
  });

  test('an updated shard answers queries as the browser loads it, with the edited words found and the old ones gone', async () => {
    const g = generator(3);
    const docs = g.sorted(Array.from({ length: 30 }, g.doc));
    const next = docs.map((d, i) => (i === 7 ? { ...d, title: 'Rhodiola', text: 'Rhodiola rosea root extract, 3% rosavins.' } : d));
    const update = await updateShard({ contents: indexShard(docs).contents, digests: docs.map(digest) }, next, next.map(digest));
    const file = JSON.parse(update!.contents) as SearchIndexFile;
    const mini = await MiniSearch.loadJSAsync(file.index as never, INDEX_OPTIONS);
    const found = mini.search('rosavins', queryOptionsFor(file.docs)).map((r) => file.docs[r.id as number][1]);
    expect(found).toEqual([next[7].url]);
    const before = new MiniSearch(INDEX_OPTIONS);
    before.addAll(docs.map((d, id) => ({ id, title: d.title, text: d.text })));
    const oldWord = docs[7].text.split(' ').find((w) => !next.some((d) => d.text.includes(w) || d.title.includes(w)));
    if (oldWord !== undefined) expect(mini.search(oldWord, { prefix: false, fuzzy: false })).toEqual([]);
  });
});
