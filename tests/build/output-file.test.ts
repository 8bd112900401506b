import { linkSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { encodePieces, writeOutputFile } from '../../src/emit/output-file.js';

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-output-file-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('encodePieces', () => {
  test('gives the UTF-8 of the joined pieces, whatever the characters', () => {
    const cases: string[][] = [
      [],
      [''],
      ['<p>', 'plain', '</p>'],
      ['Cat’s claw “extract”', ' – 10:1 ', 'µg, ©, é'],
      ['emoji 🌿 inside', ' a piece', '🍄'],
      ['a lone surrogate \ud800 stays one', 'x'],
      // A pair split between two pieces: encoded as the joined string would be, not as two replacement characters.
      ['split pair \ud83c', '\udf3f here'],
      ['ends high \ud83c'],
    ];
    for (const pieces of cases) expect(Buffer.from(encodePieces(pieces)).equals(Buffer.from(pieces.join(''))), JSON.stringify(pieces)).toBe(true);
  });

  test('grows past its first megabyte and stays right afterwards', () => {
    const big = ['<main>', 'é'.repeat(700_000), '</main>'];
    expect(Buffer.from(encodePieces(big)).equals(Buffer.from(big.join('')))).toBe(true);
    expect(encodePieces(['small']).toString()).toBe('small');
  });
});

describe('writeOutputFile', () => {
  test('writes a new file, making its folder when missing', () => {
    const root = scratch();
    const target = path.join(root, 'knowledge/new-article/index.html');
    expect(writeOutputFile(target, ['<p>', 'µ', '</p>'])).toBe(Buffer.byteLength('<p>µ</p>'));
    expect(readFileSync(target, 'utf8')).toBe('<p>µ</p>');
  });

  test('leaves a file holding the same bytes alone, and replaces one that differs with a new file', () => {
    const root = scratch();
    const target = path.join(root, 'index.html');
    writeFileSync(target, '<p>same</p>');
    const before = statSync(target);
    writeOutputFile(target, ['<p>', 'same', '</p>']);
    const after = statSync(target);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);

    // Same size, other bytes; then another size: each time a new file (unlinked first, not rewritten in place).
    for (const [i, content] of ['<p>sane</p>', '<p>longer text</p>'].entries()) {
      const kept = path.join(root, `kept-${i}`);
      linkSync(target, kept);
      const old = readFileSync(target, 'utf8');
      writeOutputFile(target, [content]);
      expect(readFileSync(target, 'utf8')).toBe(content);
      expect(readFileSync(kept, 'utf8')).toBe(old); // a file rewritten in place would show the new bytes here too
    }
  });

  test('with fresh, writes without looking at what is there', () => {
    const root = scratch();
    const target = path.join(root, 'page.html');
    expect(writeOutputFile(target, ['fresh'], true)).toBe(5);
    expect(readFileSync(target, 'utf8')).toBe('fresh');
  });

  test('refuses to write over a folder', () => {
    const root = scratch();
    expect(() => writeOutputFile(root, ['x'])).toThrow(/EISDIR|illegal operation/);
  });
});
