/**
 * The documents that describe the code name only files that exist: every
 * `src/...` path in backticks in docs/CONTRACTS.md, docs/PERFORMANCE.md and
 * README.md is a file or folder of this checkout.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DOCS = ['docs/CONTRACTS.md', 'docs/PERFORMANCE.md', 'README.md'];

/** The `src/...` paths a Markdown text names in backticks (a trailing slash or `:line` left off). */
function srcPathsIn(markdown: string): string[] {
  const found = new Set<string>();
  for (const m of markdown.matchAll(/`(src\/[^`\s]*)`/g)) found.add(m[1].replace(/:\d+$/, '').replace(/\/$/, ''));
  return [...found];
}

describe('paths named by the docs', () => {
  test('the extractor finds backticked src/ paths and nothing else', () => {
    expect(srcPathsIn('see `src/emit/index.ts`, `src/cli/` and src/not-quoted.ts, `npm run codes`')).toEqual(['src/emit/index.ts', 'src/cli']);
  });

  test.each(DOCS)('every `src/...` path in %s exists', (doc) => {
    const missing = srcPathsIn(readFileSync(path.join(ROOT, doc), 'utf8')).filter((p) => !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });
});
