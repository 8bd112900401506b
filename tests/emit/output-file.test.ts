import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { encodePieces, writeOutputFile } from '../../src/emit/output/page-file.js';
import { planTwins, twinFileOf } from '../../src/emit/output/paths.js';
import { planRoutes } from '../../src/emit/plan.js';
import type { ResolvedRoute } from '../../src/check/index.js';

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

describe("a page's .html twin", () => {
  const setup = () => {
    const root = scratch();
    mkdirSync(path.join(root, 'herb-extract'));
    return { root, page: path.join(root, 'herb-extract/index.html'), twin: path.join(root, 'herb-extract.html') };
  };
  const sameFile = (a: string, b: string) => statSync(a).ino === statSync(b).ino;

  test('is the page itself under a second name: one file, two links', () => {
    const { page, twin } = setup();
    writeOutputFile(page, ['<p>', 'page', '</p>'], true, twin);
    expect(readFileSync(twin, 'utf8')).toBe('<p>page</p>');
    expect(sameFile(page, twin)).toBe(true);
    expect(statSync(page).nlink).toBe(2);
  });

  test('an unchanged page keeps its linked twin untouched; a twin of its own (stale bytes) or a missing one is replaced by the link', () => {
    const { page, twin } = setup();
    writeOutputFile(page, ['same'], true, twin);
    const before = statSync(twin);
    writeOutputFile(page, ['same'], false, twin);
    expect([statSync(twin).ino, statSync(twin).ctimeMs]).toEqual([before.ino, before.ctimeMs]);

    rmSync(twin);
    writeFileSync(twin, 'stale');
    writeOutputFile(page, ['same'], false, twin);
    expect(readFileSync(twin, 'utf8')).toBe('same');
    expect(sameFile(page, twin)).toBe(true);

    rmSync(twin);
    writeOutputFile(page, ['same'], false, twin);
    expect(sameFile(page, twin)).toBe(true);
  });

  test('a changed page gets a new file and its twin follows; a copy linked elsewhere keeps the old bytes', () => {
    const { root, page, twin } = setup();
    writeOutputFile(page, ['old'], true, twin);
    const kept = path.join(root, 'kept-elsewhere.html');
    linkSync(page, kept);
    writeOutputFile(page, ['new'], false, twin);
    expect(readFileSync(page, 'utf8')).toBe('new');
    expect(readFileSync(twin, 'utf8')).toBe('new');
    expect(sameFile(page, twin)).toBe(true);
    expect(readFileSync(kept, 'utf8')).toBe('old');
  });

  test("a new page's twin replaces a file already there, without writing through it", () => {
    const { root, page, twin } = setup();
    writeFileSync(twin, "someone else's");
    const kept = path.join(root, 'kept-elsewhere.html');
    linkSync(twin, kept);
    writeOutputFile(page, ['page'], true, twin);
    expect(readFileSync(twin, 'utf8')).toBe('page');
    expect(sameFile(page, twin)).toBe(true);
    expect(readFileSync(kept, 'utf8')).toBe("someone else's");
  });
});

describe('planTwins', () => {
  test('names <path>.html beside every folder page, not the home page', () => {
    expect(twinFileOf('herb-extract/index.html')).toBe('herb-extract.html');
    expect(twinFileOf('knowledge/-Legacy-Slug-/index.html')).toBe('knowledge/-Legacy-Slug-.html');
    expect(twinFileOf('index.html')).toBeNull();
    const { twins, clashes } = planTwins(['index.html', 'herb-extract/index.html', 'herb-extract/page-2/index.html']);
    expect(Object.fromEntries(twins)).toEqual({ 'herb-extract/index.html': 'herb-extract.html', 'herb-extract/page-2/index.html': 'herb-extract/page-2.html' });
    expect(clashes).toEqual([]);
  });

  test("leaves out a twin that would take the name of another page's file or folder, or of a file the build writes", () => {
    const files = ['index.html', '404/index.html', 'a/index.html', 'a.html/b/index.html', 'x/index.html/y/index.html', 'x/index.html', 'ok/index.html'];
    const { twins, clashes } = planTwins(files);
    expect(clashes).toEqual([
      { file: '404/index.html', twin: '404.html' },
      { file: 'a/index.html', twin: 'a.html' },
    ]);
    // x/index.html/y → its twin x/index.html/y.html is free; x's twin x.html is free too (the folder is x/index.html, not x.html).
    expect([...twins.values()].sort()).toEqual(['a.html/b.html', 'ok.html', 'x.html', 'x/index.html/y.html']);
  });
});

describe('planRoutes with twins', () => {
  // Only what planRoutes reads of a resolved route.
  const route = (path: string, output: string, pointer: string) => ({ path, output, declarations: [pointer] }) as unknown as ResolvedRoute;
  const routes = [route('/', 'index.html', '/0'), route('/404', '404/index.html', '/1'), route('/herb-extract', 'herb-extract/index.html', '/2')];

  test("marks the pages that get a twin, and warns, at the route's declaration, about one whose twin would take another file's name", () => {
    const { plan, diagnostics } = planRoutes(routes, 'data/routes.json');
    expect(plan.map((p) => [p.file, p.twin === true])).toEqual([
      ['index.html', false],
      ['404/index.html', false],
      ['herb-extract/index.html', true],
    ]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'build/html-twin-clash', severity: 'warning', file: 'data/routes.json', pointer: '/1/path' });
    expect(diagnostics[0].message).toContain('404.html');
  });

  test('with twins off, no page gets one and nothing is reported', () => {
    const { plan, diagnostics } = planRoutes(routes, 'data/routes.json', false);
    expect(plan.every((p) => p.twin === undefined)).toBe(true);
    expect(diagnostics).toEqual([]);
  });
});
