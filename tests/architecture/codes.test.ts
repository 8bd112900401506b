/**
 * One catalogue of diagnostic codes: every load, check and build code that
 * src/ raises is in src/core/codes.ts, and docs/CODES.md is what the
 * catalogue generates.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { describe, expect, test } from 'vitest';
import { codesMarkdown } from '../../scripts/codes-doc.js';
import { CODES } from '../../src/core/codes.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Every string literal in src/ shaped like a load, check or build code. */
function codesWritten(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of fg.sync('src/**/*.{ts,tsx}', { cwd: ROOT })) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    for (const m of text.matchAll(/['"`]((?:load|check|build)\/[a-z]+(?:-[a-z]+)*)['"`]/g)) if (!found.has(m[1])) found.set(m[1], file);
  }
  return found;
}

describe('the code catalogue', () => {
  test('every load, check and build code written in src/ is catalogued', () => {
    const missing = [...codesWritten()].filter(([code]) => !Object.hasOwn(CODES, code)).map(([code, file]) => `${code} (${file})`);
    expect(missing).toEqual([]);
  });

  test('every catalogued code has a severity, a meaning and a fix', () => {
    for (const [code, info] of Object.entries(CODES)) {
      expect(['error', 'warning', 'info'], code).toContain(info.severity);
      expect(info.title.length, code).toBeGreaterThan(10);
      expect(info.fix.length, code).toBeGreaterThan(5);
    }
  });

  test('docs/CODES.md is generated from the catalogue (run `npm run codes` after changing it)', () => {
    expect(readFileSync(path.join(ROOT, 'docs/CODES.md'), 'utf8')).toBe(codesMarkdown());
  });
});
