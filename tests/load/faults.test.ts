/**
 * Bad input the load stage refuses before anything is published: bytes that
 * are not UTF-8, symbolic links out of data/, files and texts over the limits.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/load/index.js';
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
