import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readSnapshot, writeSnapshot } from '../../src/emit/threads/snapshot.js';
import { fixtureCatalogue } from './fixture.js';

const dir = mkdtempSync(path.join(tmpdir(), 'site-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('catalogue snapshot', () => {
  test('reads back what was written, field by field', () => {
    const { sourceOf: _s, bodies: _b, ...catalogue } = fixtureCatalogue();
    const file = path.join(dir, 'whole.catalogue');
    writeSnapshot(file, catalogue);
    expect(readSnapshot(file)).toEqual(catalogue);
    // Objects shared within a field stay shared.
    const meta = { title: '', description: '', keywords: '' };
    writeSnapshot(file, { routes: [{ meta }, { meta }] });
    const back = readSnapshot<{ routes: Array<{ meta: object }> }>(file);
    expect(back.routes[0].meta).toBe(back.routes[1].meta);
  });

  test('a cut file is an error, not a smaller catalogue', () => {
    const file = path.join(dir, 'cut.catalogue');
    writeSnapshot(file, { a: 'x'.repeat(100), b: [1, 2, 3] });
    truncateSync(file, readFileSync(file).length - 3);
    expect(() => readSnapshot(file)).toThrow(/ends inside a field/);
    writeFileSync(file, Buffer.from([1, 0]));
    expect(() => readSnapshot(file)).toThrow(/ends inside a field's length/);
  });
});
