/**
 * Line and column of JSON pointers in a file. Only ever called when there
 * are diagnostics to report, so the happy path never pays for it: a single
 * pass over the text that descends only into the values a pointer leads
 * through and skips everything else (no syntax tree: routes.json is large).
 * The text has already been through JSON.parse, so it is valid JSON.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type * as JsoncParser from 'jsonc-parser';
import { extended } from '../core/objects.js';

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (what editors count). */
  column: number;
}

/**
 * jsonc-parser, loaded on first use: only a syntax error needs it, and its
 * import would cost start-up time on every run. Synchronous (its CommonJS
 * build) so that callers stay plain functions.
 */
let jsonc: typeof JsoncParser | undefined;
export function jsoncParser(): typeof JsoncParser {
  jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

/** Splits an RFC 6901 pointer into its unescaped reference tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A file's text that answers position questions; answers are remembered. */
export interface Locator {
  locate(pointer: string): Position;
  /** Many pointers in one pass over the text. */
  locateMany(pointers: readonly string[]): Position[];
  positionAt(offset: number): Position;
}

export function createLocator(text: string): Locator {
  let lineStarts: number[] | undefined;
  const offsets = new Map<string, number>();

  const positionAt = (offset: number): Position => {
    lineStarts ??= computeLineStarts(text);
    // Binary search: the last line that starts at or before offset.
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - lineStarts[lo] + 1 };
  };

  const locateMany = (pointers: readonly string[]): Position[] => {
    const missing = pointers.filter((p) => !offsets.has(p));
    if (missing.length > 0) {
      const found = findOffsets(text, missing);
      for (const p of missing) offsets.set(p, deepestOffset(p, found));
    }
    return pointers.map((p) => positionAt(offsets.get(p)!));
  };

  return { locate: (pointer) => locateMany([pointer])[0], locateMany, positionAt };
}

/** Position of `pointer` in `text` (one-off; use createLocator for many). */
export function locateInText(text: string, pointer: string): Position {
  return createLocator(text).locate(pointer);
}

// Later stages locate many diagnostics in the same few files (routes.json
// above all): read each file once per process, again only if it changed.
const cache = new Map<string, { mtimeMs: number; size: number; locator: Locator }>();

function locatorFor(file: string): Locator | undefined {
  const abs = resolve(file);
  try {
    const st = statSync(abs);
    let hit = cache.get(abs);
    if (!hit || hit.mtimeMs !== st.mtimeMs || hit.size !== st.size) {
      hit = { mtimeMs: st.mtimeMs, size: st.size, locator: createLocator(stripBom(readFileSync(abs, 'utf8'))) };
      cache.set(abs, hit);
    }
    return hit.locator;
  } catch {
    return undefined;
  }
}

/**
 * Position of `pointer` in `file` (a path relative to the working directory,
 * as diagnostics carry it, or absolute). A file that cannot be read yields 1:1
 * so that reporting a problem never fails on the report itself.
 */
export function locate(file: string, pointer: string): Position {
  return locateMany(file, [pointer])[0];
}

/** Positions of many pointers of one file, in one pass. */
export function locateMany(file: string, pointers: readonly string[]): Position[] {
  // Nothing to locate: the file is not read (routes.json of a large catalogue is tens of MB, and the cache would keep it).
  if (pointers.length === 0) return [];
  const locator = locatorFor(file);
  if (!locator) return pointers.map(() => ({ line: 1, column: 1 }));
  try {
    return locator.locateMany(pointers);
  } catch {
    // Not JSON after all (changed under us, or never was): point at the top.
    return pointers.map(() => ({ line: 1, column: 1 }));
  }
}

/**
 * Diagnostics with line and column added: each file's pointers located in one
 * call of `positionsIn` (by default reading the file from disk).
 */
export function withPositions<D extends { file: string; pointer: string }>(
  diagnostics: readonly D[],
  positionsIn: (file: string, pointers: readonly string[]) => Position[] = locateMany,
): D[] {
  const byFile = new Map<string, number[]>();
  diagnostics.forEach((d, i) => {
    const list = byFile.get(d.file);
    if (list) list.push(i);
    else byFile.set(d.file, [i]);
  });
  const out = [...diagnostics];
  for (const [file, indices] of byFile) {
    const positions = positionsIn(
      file,
      indices.map((i) => diagnostics[i].pointer),
    );
    indices.forEach((i, k) => (out[i] = extended(diagnostics[i], positions[k])));
  }
  return out;
}

export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function computeLineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/**
 * A missing field points at the deepest value that exists on its way (the
 * object that should hold it), which is where the editor has to add it.
 */
function deepestOffset(pointer: string, found: Map<string, number>): number {
  for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
    const at = found.get(p);
    if (at !== undefined) return at;
    if (p === '') return 0;
  }
}

/**
 * Offsets of the given pointers and of every prefix of them that exists. An
 * object member is reported at its key (where the field's name is), an array
 * item at its value. A repeated key: the last one, as JSON.parse keeps it.
 */
export function findOffsets(text: string, pointers: readonly string[]): Map<string, number> {
  const wanted = new Set<string>(['']);
  for (const p of pointers) {
    for (let i = p.indexOf('/', 1); i !== -1; i = p.indexOf('/', i + 1)) wanted.add(p.slice(0, i));
    wanted.add(p);
  }
  const found = new Map<string, number>();
  const n = text.length;
  let i = 0;

  const skipSpace = () => {
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
    }
  };
  // i at the opening quote → i after the closing quote. indexOf, not a
  // character loop: skipping most of a large file is the whole cost here.
  const skipString = () => {
    for (let from = i + 1; ; ) {
      const q = text.indexOf('"', from);
      if (q === -1) {
        i = n;
        return;
      }
      let backslashes = 0;
      while (text.charCodeAt(q - 1 - backslashes) === 0x5c) backslashes++;
      if (backslashes % 2 === 0) {
        i = q + 1;
        return;
      }
      from = q + 1;
    }
  };
  const STRUCTURE = /["[\]{}]/g;
  const SCALAR_END = /[,\]}\s]/g;
  // Skips a whole value without looking inside it.
  const skipValue = () => {
    const c = text.charCodeAt(i);
    if (c === 0x22) return skipString();
    if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      STRUCTURE.lastIndex = i;
      for (let m = STRUCTURE.exec(text); m; m = STRUCTURE.exec(text)) {
        const d = text.charCodeAt(m.index);
        if (d === 0x22) {
          i = m.index;
          skipString();
          STRUCTURE.lastIndex = i;
        } else if (d === 0x7b || d === 0x5b) depth++;
        else if (--depth === 0) {
          i = m.index + 1;
          return;
        }
      }
      i = n;
      return;
    }
    SCALAR_END.lastIndex = i;
    i = SCALAR_END.exec(text)?.index ?? n;
  };

  // i at the start of a value whose pointer is `path`, reported at `at`.
  const value = (path: string, at: number): void => {
    if (!wanted.has(path)) {
      skipValue();
      return;
    }
    found.set(path, at);
    const c = text.charCodeAt(i);
    if (c === 0x7b) {
      i++;
      skipSpace();
      while (i < n && text.charCodeAt(i) !== 0x7d) {
        const keyAt = i;
        skipString();
        const raw = text.slice(keyAt + 1, i - 1);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(keyAt, i)) as string) : raw;
        skipSpace();
        i++; // the colon
        skipSpace();
        value(`${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, keyAt);
        skipSpace();
        if (text.charCodeAt(i) === 0x2c) i++;
        skipSpace();
      }
      i++;
    } else if (c === 0x5b) {
      i++;
      skipSpace();
      for (let index = 0; i < n && text.charCodeAt(i) !== 0x5d; index++) {
        value(`${path}/${index}`, i);
        skipSpace();
        if (text.charCodeAt(i) === 0x2c) i++;
        skipSpace();
      }
      i++;
    } else skipValue();
  };

  skipSpace();
  value('', i);
  return found;
}
