/**
 * Line and column of a JSON pointer in a file. Only ever called when there is
 * a diagnostic to report, so the happy path never pays for a syntax tree:
 * `JSON.parse` reads the data, jsonc-parser re-reads a file only to point at it.
 */
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type * as JsoncParser from 'jsonc-parser';

type Node = JsoncParser.Node;

/**
 * jsonc-parser, loaded on first use: a run without diagnostics never needs
 * it, and its import would cost start-up time on every run. Synchronous
 * (its CommonJS build) so that locate() stays a plain function.
 */
let jsonc: typeof JsoncParser | undefined;
export function jsoncParser(): typeof JsoncParser {
  jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  return jsonc;
}

export interface Position {
  /** 1-based. */
  line: number;
  /** 1-based, in UTF-16 code units (what editors count). */
  column: number;
}

/** Splits an RFC 6901 pointer into its unescaped reference tokens. */
export function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A parsed file that can answer many position questions cheaply. */
export interface Locator {
  locate(pointer: string): Position;
  positionAt(offset: number): Position;
}

export function createLocator(text: string): Locator {
  let tree: Node | undefined;
  let lineStarts: number[] | undefined;

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

  const locate = (pointer: string): Position => {
    tree ??= jsoncParser().parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
    if (!tree) return { line: 1, column: 1 };
    return positionAt(nodeOffset(deepestNode(tree, pointerTokens(pointer))));
  };

  return { locate, positionAt };
}

/** Position of `pointer` in `text` (one-off; use createLocator for many). */
export function locateInText(text: string, pointer: string): Position {
  return createLocator(text).locate(pointer);
}

// Later stages locate many diagnostics in the same few files (routes.json
// above all): parse each file once per process, re-read it if it changed.
const cache = new Map<string, { mtimeMs: number; size: number; locator: Locator }>();

/**
 * Position of `pointer` in `file` (a path relative to the working directory,
 * as diagnostics carry it, or absolute). A file that cannot be read yields 1:1
 * so that reporting a problem never fails on the report itself.
 */
export function locate(file: string, pointer: string): Position {
  const abs = resolve(file);
  try {
    const st = statSync(abs);
    let hit = cache.get(abs);
    if (!hit || hit.mtimeMs !== st.mtimeMs || hit.size !== st.size) {
      hit = { mtimeMs: st.mtimeMs, size: st.size, locator: createLocator(stripBom(readFileSync(abs, 'utf8'))) };
      cache.set(abs, hit);
    }
    return hit.locator.locate(pointer);
  } catch {
    return { line: 1, column: 1 };
  }
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
 * Walks the pointer as far as the document goes: a missing field points at
 * the object that should hold it, which is where the editor has to add it.
 */
function deepestNode(root: Node, tokens: string[]): Node {
  let node = root;
  for (const token of tokens) {
    let next: Node | undefined;
    if (node.type === 'object') {
      // The last duplicate key wins in JSON.parse, so point at that one.
      const prop = node.children?.findLast((p) => p.children?.[0]?.value === token);
      next = prop?.children?.[1];
    } else if (node.type === 'array' && /^(0|[1-9]\d*)$/.test(token)) {
      next = node.children?.[Number(token)];
    }
    if (!next) break;
    node = next;
  }
  return node;
}

/** An object member is reported at its key (where the field's name is), anything else at its value. */
function nodeOffset(node: Node): number {
  const parent = node.parent;
  if (parent?.type === 'property' && parent.children?.[1] === node) return parent.offset;
  return node.offset;
}
