/**
 * Test catalogues: one small valid catalogue (tests/fixtures/check-base/data)
 * plus scenario folders that hold only the fault. A scenario folder may have
 *   data/…       files copied over the base (a broken file, an extra product)
 *   edits.json   edits of the base's JSON, so a fault reads as one line:
 *     {"op": "patch-route", "path": "/api", "set": {"name": "x"}, "unset": ["grandId"]}
 *     {"op": "remove-route", "path": "/herb-extract/page-2"}
 *     {"op": "append-route", "value": {…}}            a new route
 *     {"op": "repeat-route", "path": "/thanks", "set": {…}}   declare a route again (changed by set)
 *     {"op": "set", "file": "products/x.json", "pointer": "/id", "value": …}
 *     {"op": "remove", "file": "products/x.json"}
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';

export const FIXTURES = resolve(import.meta.dirname, '../fixtures');
export const BASE_DATA = join(FIXTURES, 'check-base/data');

type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Edit =
  | { op: 'patch-route'; path: string; set?: Record<string, Json>; unset?: string[] }
  | { op: 'remove-route'; path: string }
  | { op: 'append-route'; value: Json }
  | { op: 'repeat-route'; path: string; set?: Record<string, Json> }
  | { op: 'set'; file: string; pointer: string; value: Json }
  | { op: 'remove'; file: string };

const made: string[] = [];
afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temp copy of the base catalogue with the scenario applied; returns its data dir. */
export function scenario(name: string | null): string {
  const root = mkdtempSync(join(tmpdir(), `site-check-${name ?? 'base'}-`));
  made.push(root);
  const data = join(root, 'data');
  cpSync(BASE_DATA, data, { recursive: true });
  if (name === null) return data;
  const dir = join(FIXTURES, name);
  if (!existsSync(dir)) throw new Error(`no scenario folder ${dir}`);
  if (existsSync(join(dir, 'data'))) cpSync(join(dir, 'data'), data, { recursive: true });
  const editsFile = join(dir, 'edits.json');
  if (existsSync(editsFile)) applyEdits(data, JSON.parse(readFileSync(editsFile, 'utf8')) as Edit[]);
  return data;
}

export function applyEdits(data: string, edits: readonly Edit[]): void {
  for (const edit of edits) {
    if (edit.op === 'set') {
      const file = join(data, edit.file);
      const doc = JSON.parse(readFileSync(file, 'utf8'));
      setAt(doc, edit.pointer, edit.value);
      writeJson(file, doc);
      continue;
    }
    if (edit.op === 'remove') {
      rmSync(join(data, edit.file));
      continue;
    }
    const file = join(data, 'routes.json');
    const routes = JSON.parse(readFileSync(file, 'utf8')) as Json[];
    const find = (path: string) => {
      const i = routes.findIndex((r) => r.path === path);
      if (i < 0) throw new Error(`edits: no route ${path} in the base`);
      return i;
    };
    if (edit.op === 'patch-route') {
      const r = routes[find(edit.path)];
      Object.assign(r, edit.set ?? {});
      for (const k of edit.unset ?? []) delete r[k];
    } else if (edit.op === 'remove-route') routes.splice(find(edit.path), 1);
    else if (edit.op === 'append-route') routes.push(edit.value);
    else if (edit.op === 'repeat-route') routes.push({ ...structuredClone(routes[find(edit.path)]), ...(edit.set ?? {}) });
    writeJson(file, routes);
  }
}

function setAt(doc: Json, pointer: string, value: Json): void {
  const tokens = pointer.slice(1).split('/');
  let node = doc;
  for (const t of tokens.slice(0, -1)) node = node[t];
  node[tokens[tokens.length - 1]] = value;
}

function writeJson(file: string, value: Json): void {
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

export function readJson(file: string): Json {
  return JSON.parse(readFileSync(file, 'utf8'));
}
