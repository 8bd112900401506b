/**
 * The import rules of README.md ("Which folder may import which") hold in
 * src/: dependency-cruiser reads the table through .dependency-cruiser.cjs
 * and reports every import that crosses it.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPCRUISE = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs dependency-cruiser as `npx depcruise` would, in `cwd`, and returns its violations. */
function violations(cwd: string, what: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(process.execPath, [DEPCRUISE, ...what, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
  } catch (err) {
    // Exit code = number of errors; the report is still on stdout.
    out = (err as { stdout: string }).stdout;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

/** The folders the README's table names, in order. */
function tableFolders(readme: string): string[] {
  const block = /<!-- import-rules -->([\s\S]*?)<!-- \/import-rules -->/.exec(readme)![1];
  return [...block.matchAll(/^\| `([a-z-]+)\/` \|/gm)].map((m) => m[1]);
}

describe('import rules', () => {
  test('no import in src/ crosses the README table, and no module imports itself in a circle', () => {
    const found = violations(ROOT, ['src']);
    expect(found.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  test('the table names every folder of src/', () => {
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(tableFolders(readFileSync(path.join(ROOT, 'README.md'), 'utf8')).sort()).toEqual(folders.sort());
  });

  test('a crossing the table forbids is reported (a template importing render/, core importing load/)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'import-rules-'));
    cpSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
    cpSync(path.join(ROOT, 'README.md'), path.join(dir, 'README.md'));
    cpSync(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    const put = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    put('src/render/page.ts', 'export const page = 1;\n');
    put('src/templates/Card.ts', "import { page } from '../render/page.js';\nexport const card = page;\n");
    put('src/load/read.ts', 'export const read = 1;\n');
    put('src/core/schema.ts', "import { read } from '../load/read.js';\nexport const schema = read;\n");
    put('src/model/model.ts', "import { schema } from '../core/schema.js';\nexport const model = schema;\n");
    const found = violations(dir, ['src']).map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`);
    expect(found.sort()).toEqual(['core-imports: src/core/schema.ts -> src/load/read.ts', 'templates-imports: src/templates/Card.ts -> src/render/page.ts']);
  });
});
