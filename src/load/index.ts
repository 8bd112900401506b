/**
 * The load stage: reads `data/` file by file, parses and validates every file
 * against its zod schema, and returns the catalogue or every problem found.
 * Nothing here knows about other files; cross-file rules are the check stage's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.js';
import type { Catalogue } from './catalogue.js';
import { article, category, newsItem, page, product, routeRegistry, siteConfig } from './schema.js';
import { fieldName, problemPointer, schemaProblems } from './issues.js';
import { parseJson } from './json.js';
import { createLocator } from './locate.js';
import { compareDiagnostics } from './order.js';

export interface LoadResult {
  /** Null only when a file could not be read or validated; `diagnostics` then says why. */
  catalogue: Catalogue | null;
  /** Errors (the catalogue is then null) and warnings (files the layout does not know), sorted. */
  diagnostics: Diagnostic[];
}

/** The per-entity folders of `data/`, one JSON file per entity. */
const COLLECTIONS = {
  categories: category,
  products: product,
  articles: article,
  news: newsItem,
  pages: page,
} as const;
type CollectionName = keyof typeof COLLECTIONS;

/** The single files of `data/`. */
const SINGLES = { site: ['site.json', siteConfig], routes: ['routes.json', routeRegistry] } as const;


export async function loadCatalogue(dataDir: string): Promise<LoadResult> {
  const root = resolve(dataDir);
  const base = toPosix(dataDir).replace(/\/+$/, '') || '.';
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);

  if (!(await isDirectory(root))) {
    return {
      catalogue: null,
      diagnostics: [
        {
          code: 'load/missing-data-dir',
          severity: 'error',
          file: base,
          pointer: '',
          message: `The data directory ${base} does not exist; pass the catalogue's folder with --data-dir.`,
        },
      ],
    };
  }

  const names = Object.keys(COLLECTIONS) as CollectionName[];
  const listings = names.map((name) => jsonFilesIn(root, name));
  const entityFiles = listings.flatMap((l) => l.files);
  const strays = [...strayEntries(root, names), ...listings.flatMap((l) => l.strays)].map(
    (rel): Diagnostic => ({
      code: 'load/unexpected-file',
      severity: 'warning',
      file: label(rel),
      pointer: '',
      message: `${label(rel)} is not part of the catalogue's layout (site.json, routes.json, and *.json files in ${names.map((n) => `${n}/`).join(', ')}), so it is ignored; move it out or fix its name.`,
    }),
  );
  const jobs: Array<{ rel: string; schema: z.ZodType; into: string }> = [
    { rel: SINGLES.site[0], schema: SINGLES.site[1], into: 'site' },
    { rel: SINGLES.routes[0], schema: SINGLES.routes[1], into: 'routes' },
    ...entityFiles.map((rel) => ({ rel, schema: COLLECTIONS[rel.slice(0, rel.indexOf('/')) as CollectionName] as z.ZodType, into: rel.slice(0, rel.indexOf('/')) })),
  ];

  // Synchronous reads, one file at a time: for a thousand small files they are
  // ten times faster than fs.promises (four thread-pool round trips per file),
  // and they never hold more than one file descriptor or one file's text.
  const results = jobs.map((job) => loadFile(join(root, job.rel), label(job.rel), job.schema));

  const diagnostics = [...results.flatMap((r) => r.diagnostics), ...strays].sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { catalogue: null, diagnostics };

  const sourceOf = new WeakMap<object, string>();
  const collected: Record<string, unknown[]> = { categories: [], products: [], articles: [], news: [], pages: [] };
  let site: unknown;
  let routes: unknown[] = [];
  jobs.forEach((job, i) => {
    const value = results[i].value as object;
    const file = label(job.rel);
    if (job.into === 'site') site = value;
    else if (job.into === 'routes') {
      routes = value as unknown[];
      for (const r of routes) sourceOf.set(r as object, file);
    } else collected[job.into].push(value);
    sourceOf.set(value, file);
  });

  const catalogue = {
    root,
    site,
    routes,
    categories: collected.categories,
    products: collected.products,
    articles: collected.articles,
    news: collected.news,
    pages: collected.pages,
    sourceOf,
  } as Catalogue;
  return { catalogue, diagnostics };
}

interface FileResult {
  value?: unknown;
  diagnostics: Diagnostic[];
}

function loadFile(abs: string, file: string, schema: z.ZodType): FileResult {
  let text: string;
  try {
    text = readFileSync(abs, 'utf8');
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    return {
      diagnostics: [
        {
          code: missing ? 'load/missing-file' : 'load/unreadable-file',
          severity: 'error',
          file,
          pointer: '',
          message: missing
            ? `The catalogue needs ${file}; create it (see the data layout in README).`
            : `Could not read ${file}: ${(err as Error).message}.`,
        },
      ],
    };
  }
  const parsed = parseJson(text, file);
  if (!parsed.ok) return { diagnostics: [parsed.diagnostic] };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { value: result.data, diagnostics: [] };

  // Positions only now that there is something to report.
  const problems = schemaProblems(result.error.issues);
  const pointers = problems.map((p) => problemPointer(p.path));
  const positions = createLocator(parsed.text).locateMany(pointers);
  return {
    diagnostics: problems.map((p, i): Diagnostic => ({
      code: 'load/schema',
      severity: 'error',
      file,
      pointer: pointers[i],
      ...positions[i],
      message: `${fieldName(p.path)}: ${p.message}.`,
    })),
  };
}

/**
 * `<dir>/*.json` relative to root, sorted (directory order depends on the
 * file system; the output must not), and anything else found there. A plain
 * readdir: fast-glob's import alone costs more start-up time than listing
 * these folders takes.
 */
function jsonFilesIn(root: string, dir: string): { files: string[]; strays: string[] } {
  let entries;
  try {
    entries = readdirSync(join(root, dir), { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { files: [], strays: [] };
    throw err;
  }
  const files: string[] = [];
  const strays: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith('.')) continue; // editors' and systems' hidden files
    (e.name.endsWith('.json') && (e.isFile() || e.isSymbolicLink()) ? files : strays).push(`${dir}/${e.name}`);
  }
  return { files: files.sort(), strays: strays.sort() };
}

/** Top-level entries of data/ that the layout does not know (a misspelt folder would otherwise vanish silently). */
function strayEntries(root: string, collections: readonly string[]): string[] {
  const known = new Set<string>([SINGLES.site[0], SINGLES.routes[0], ...collections]);
  return readdirSync(root)
    .filter((name) => !name.startsWith('.') && !known.has(name))
    .sort();
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

function toPosix(p: string): string {
  return p.replace(/\\/g, '/');
}

export type { Catalogue } from './catalogue.js';
export { locate } from './locate.js';
