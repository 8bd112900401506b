/**
 * detached() must copy: a link target kept for the whole build that is a
 * view into its page keeps the page's HTML alive (220 MB at 100,000 routes).
 * Measured as retained heap, since JavaScript cannot ask whether a string is a slice.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { detached } from '../../src/core/strings.js';
import { mergeTally, type LinkTally } from '../../src/emit/links/scan.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap kept by what `keep` returns for 64 pages of 1 MB each, the pages themselves dropped. */
function retainedBy<T>(keep: (page: string, i: number) => T): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept: T[] = [];
  for (let i = 0; i < 64; i++) {
    // A fresh flat string per page, as React's output is once joined.
    const page = (`<a href="/products/item-${i}-of-the-catalogue">` + 'x'.repeat(1 << 20)).split('').join('');
    kept.push(keep(page, i));
  }
  gc();
  const retained = process.memoryUsage().heapUsed - before;
  expect(kept).toHaveLength(64);
  return retained;
}

const target = (page: string): string => /href="([^"]*)"/.exec(page)![1];

describe('detached', () => {
  test('is equal to the original, lone surrogates included', () => {
    for (const s of ['', 'a', '/products/green-tea-extract?x=1#y', '\ud800 lone \udfff', '漢字 😀'.repeat(40)]) expect(detached(s)).toBe(s);
  });

  test('keeps none of the page a target was read from; a slice keeps it whole', { timeout: 60_000 }, () => {
    const slices = retainedBy((page) => target(page));
    const copies = retainedBy((page) => detached(target(page)));
    // 64 MB of pages kept by slices, against a few MB of noise (the last match, collector slack) for copies.
    expect(slices).toBeGreaterThan(48 << 20);
    expect(copies).toBeLessThan(16 << 20);
  });

  test("the build's link tally keeps copies of the targets it is given", { timeout: 60_000 }, () => {
    const tally: LinkTally = new Map();
    const retained = retainedBy((page, i) => mergeTally(tally, [[target(page), 1, [i]]]));
    expect(tally.size).toBe(64);
    expect(retained).toBeLessThan(16 << 20);
  });
});
