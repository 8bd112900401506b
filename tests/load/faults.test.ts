/**
 * Bad input the load stage refuses before anything is published: bytes that
 * are not UTF-8, symbolic links out of data/, files and texts over the limits.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/load/index.js';
import { readDataDir } from '../../src/load/read.js';
import { scenario } from '../check/fixture.js';

const rows = (data: string, diagnostics: ReadonlyArray<{ code: string; severity: string; file: string; pointer: string; line?: number; column?: number }>) =>
  diagnostics.map((d) => [d.code, d.severity, d.file.slice(data.length + 1), d.pointer, d.line, d.column]);

describe('bytes that are not UTF-8', () => {
  it('are refused with file, line and column, not published as U+FFFD', async () => {
    const data = scenario(null);
    const file = join(data, 'products/ginger-extract.json');
    const text = readFileSync(file, 'utf8');
    // Latin-1 "é" (0xE9) in the product's name, as an editor's old tool would save it.
    const at = text.indexOf('"name": "') + '"name": "'.length;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at), 'utf8'), Buffer.from([0xe9]), Buffer.from(text.slice(at), 'utf8')]);
    writeFileSync(file, bytes);
    const before = text.slice(0, at).split('\n');
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(rows(data, diagnostics)).toEqual([['load/invalid-utf8', 'error', 'products/ginger-extract.json', '', before.length, before.at(-1)!.length + 1]]);
    expect(diagnostics[0].message).toContain('0xE9');
    expect(diagnostics[0].message).toContain(`line ${before.length}, column ${before.at(-1)!.length + 1}`);
  });

  it('count a legitimate U+FFFD as text, and position after one', async () => {
    const data = scenario(null);
    const file = join(data, 'products/ginger-extract.json');
    const text = readFileSync(file, 'utf8').replace('"name": "', '"name": "\uFFFD');
    writeFileSync(file, Buffer.concat([Buffer.from(text, 'utf8'), Buffer.from([0x20, 0xc3])])); // a cut-off two-byte sequence at the end
    const lines = text.split('\n');
    const { diagnostics } = await loadCatalogue(data);
    expect(rows(data, diagnostics)).toEqual([['load/invalid-utf8', 'error', 'products/ginger-extract.json', '', lines.length, lines.at(-1)!.length + 2]]);
  });
});

describe('symbolic links', () => {
  /** A folder beside data/ holding what links point at: a valid product, so following a link would load it without a word. */
  function outsideFolder(data: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'site-outside-'));
    writeFileSync(join(dir, 'product.json'), readFileSync(join(data, 'products/ginger-extract.json')));
    writeFileSync(join(dir, 'site.json'), readFileSync(join(data, 'site.json')));
    writeFileSync(join(dir, 'photo.png'), 'x');
    return dir;
  }

  it('out of data/ are refused wherever they are: JSON files, folders, images, strays, and dangling ones', async () => {
    const data = scenario(null);
    const out = outsideFolder(data);
    symlinkSync(join(out, 'product.json'), join(data, 'products/leak.json'));
    symlinkSync(join(out, 'site.json'), join(data, 'site.json.tmp')); // a stray name
    mkdirSync(join(data, 'images'));
    symlinkSync(join(out, 'photo.png'), join(data, 'images/photo.png'));
    symlinkSync(out, join(data, 'images/shared'));
    symlinkSync('../../../gone.json', join(data, 'products/dangling.json'));
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(rows(data, diagnostics)).toEqual([
      ['load/link-outside-data', 'error', 'images/photo.png', '', undefined, undefined],
      ['load/link-outside-data', 'error', 'images/shared', '', undefined, undefined],
      ['load/link-outside-data', 'error', 'products/dangling.json', '', undefined, undefined],
      ['load/link-outside-data', 'error', 'products/leak.json', '', undefined, undefined],
      ['load/link-outside-data', 'error', 'site.json.tmp', '', undefined, undefined],
    ]);
    expect(diagnostics[3].message).toContain(join(out, 'product.json'));
  });

  it('out of data/ are refused for site.json and for a whole collection folder', async () => {
    const data = scenario(null);
    const out = outsideFolder(data);
    const moved = join(out, 'articles');
    mkdirSync(moved);
    for (const name of ['berberine-dosage-guide.json', 'ginger-vs-turmeric.json', 'what-is-curcumin.json'])
      writeFileSync(join(moved, name), readFileSync(join(data, 'articles', name)));
    rmSync(join(data, 'articles'), { recursive: true });
    symlinkSync(moved, join(data, 'articles'));
    rmSync(join(data, 'site.json'));
    symlinkSync(join(out, 'site.json'), join(data, 'site.json'));
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(rows(data, diagnostics)).toEqual([
      ['load/link-outside-data', 'error', 'articles', '', undefined, undefined],
      ['load/link-outside-data', 'error', 'site.json', '', undefined, undefined],
    ]);
  });

  it('inside data/ are followed for JSON files, and an image link stays unpublished', async () => {
    const data = scenario(null);
    renameSync(join(data, 'products/ginger-extract.json'), join(data, 'products/.ginger-extract.json'));
    symlinkSync('.ginger-extract.json', join(data, 'products/ginger-extract.json'));
    // A folder whose name starts with two dots is inside data/ all the same.
    mkdirSync(join(data, '..shared'));
    renameSync(join(data, 'products/chaga-extract-powder.json'), join(data, '..shared/chaga-extract-powder.json'));
    symlinkSync('../..shared/chaga-extract-powder.json', join(data, 'products/chaga-extract-powder.json'));
    mkdirSync(join(data, 'images'));
    symlinkSync('../site.json', join(data, 'images/secret.png'));
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(rows(data, diagnostics)).toEqual([['load/unexpected-file', 'warning', 'images/secret.png', '', undefined, undefined]]);
    expect(catalogue!.products.map((p) => p.slug)).toEqual(['berberine-powder-bulk', 'bulk-curcumin', 'chaga-extract-powder', 'ginger-extract']);
    expect(catalogue!.images).toEqual([]);
  });
});

describe('limits', () => {
  const setLimits = (data: string, limits: unknown) => {
    const site = JSON.parse(readFileSync(join(data, 'site.json'), 'utf8'));
    writeFileSync(join(data, 'site.json'), JSON.stringify({ ...site, limits }, null, 2));
  };

  it('refuse a data file over 5 MB by default, without reading it', async () => {
    const data = scenario(null);
    const file = join(data, 'products/ginger-extract.json');
    writeFileSync(file, readFileSync(file, 'utf8') + ' '.repeat(5 * 1024 * 1024));
    const snapshot = readDataDir(data);
    const f = snapshot.files.find((x) => x.rel === 'products/ginger-extract.json')!;
    expect([f.bytes, f.digest]).toEqual([undefined, undefined]);
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).toBeNull();
    expect(rows(data, diagnostics)).toEqual([['load/file-too-large', 'error', 'products/ginger-extract.json', '', undefined, undefined]]);
    expect(diagnostics[0].message).toMatch(/is 5\.\d MB, over the limit of 5\.0 MB .*limits\.fileBytes in .*site\.json/);
  });

  it('take the file limit from site.json, which validates it', async () => {
    const data = scenario(null);
    setLimits(data, { fileBytes: 880 });
    const { diagnostics } = await loadCatalogue(data);
    const big = rows(data, diagnostics);
    expect(big.length).toBeGreaterThan(0);
    expect(big.every(([code]) => code === 'load/file-too-large')).toBe(true);
    // The registry grows with the catalogue: it has a limit of its own.
    expect(big.map((r) => r[2])).not.toContain('routes.json');
    expect(big.map((r) => r[2]).sort()).toEqual(['products/berberine-powder-bulk.json', 'products/chaga-extract-powder.json']);

    setLimits(data, { routesBytes: 2000 });
    const registry = await loadCatalogue(data);
    expect(rows(data, registry.diagnostics)).toEqual([['load/file-too-large', 'error', 'routes.json', '', undefined, undefined]]);
    expect(registry.diagnostics[0].message).toContain('(limits.routesBytes in site.json)');

    setLimits(data, { fileBytes: -1, textChars: 'many' });
    const bad = await loadCatalogue(data);
    expect(rows(data, bad.diagnostics).map((r) => r.slice(0, 4))).toEqual([
      ['load/schema', 'error', 'site.json', '/limits/fileBytes'],
      ['load/schema', 'error', 'site.json', '/limits/textChars'],
    ]);
  });

  it('warn about a text over 100,000 characters, or over limits.textChars, and still load', async () => {
    const data = scenario(null);
    const file = join(data, 'products/ginger-extract.json');
    const product = JSON.parse(readFileSync(file, 'utf8'));
    product.summary = 'a'.repeat(100_001);
    product.description[0].text = 'b'.repeat(100_000);
    writeFileSync(file, JSON.stringify(product, null, 2));
    const { catalogue, diagnostics } = await loadCatalogue(data);
    expect(catalogue).not.toBeNull();
    const line =
      JSON.stringify(product, null, 2)
        .split('\n')
        .findIndex((l) => l.startsWith('  "summary"')) + 1;
    expect(rows(data, diagnostics)).toEqual([['load/long-text', 'warning', 'products/ginger-extract.json', '/summary', line, 3]]);
    expect(diagnostics[0].message).toBe(
      'summary: a text of 100,001 characters, over the limit of 100,000 (limits.textChars in site.json); shorten it or split it up.',
    );

    setLimits(data, { textChars: 50_000 });
    const lower = await loadCatalogue(data);
    expect(rows(data, lower.diagnostics).map((r) => r[3])).toEqual(['/description/0/text', '/summary']);
  });
});
