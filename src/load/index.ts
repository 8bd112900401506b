/**
 * The load stage: reads `data/` file by file, parses and validates every file
 * against its zod schema, and returns the catalogue or every problem found.
 * Nothing here knows about other files; cross-file rules are the check stage's.
 */
import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostic.js';
import type { Catalogue } from './catalogue.js';
import { article, category, newsItem, page, product, routeRegistry, siteConfig } from './schema.js';
import { fieldName, problemPointer, schemaProblems } from './issues.js';
import { parseJson } from './json.js';
import { createLocator } from './locate.js';
import { compareDiagnostics } from './order.js';
import { COLLECTION_DIRS, readDataDir, type DataFile, type DataSnapshot } from './read.js';

export interface LoadResult {
  /** Null only when a file could not be read or validated; `diagnostics` then says why. */
  catalogue: Catalogue | null;
  /** Errors (the catalogue is then null) and warnings (files the layout does not know), sorted. */
  diagnostics: Diagnostic[];
}

/** Each file's schema, by where its entity goes. */
const SCHEMAS: Record<DataFile['into'], z.ZodType> = {
  site: siteConfig,
  routes: routeRegistry,
  categories: category,
  products: product,
  articles: article,
  news: newsItem,
  pages: page,
};

export async function loadCatalogue(dataDir: string): Promise<LoadResult> {
  return validateData(readDataDir(dataDir));
}

/** Parses and validates a snapshot of `data/` (see `readDataDir`): the load stage without its I/O. */
export function validateData(snapshot: DataSnapshot): LoadResult {
  const { base } = snapshot;
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);
  if (!snapshot.exists) {
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

  const strays = snapshot.strays.map(
    (rel): Diagnostic => ({
      code: 'load/unexpected-file',
      severity: 'warning',
      file: label(rel),
      pointer: '',
      message: `${label(rel)} is not part of the catalogue's layout (site.json, routes.json, and *.json files in ${COLLECTION_DIRS.map((n) => `${n}/`).join(', ')}), so it is ignored; move it out or fix its name.`,
    }),
  );
  const results = snapshot.files.map((f) => loadFile(f, SCHEMAS[f.into]));

  const diagnostics = [...results.flatMap((r) => r.diagnostics), ...strays].sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { catalogue: null, diagnostics };

  const sourceOf = new WeakMap<object, string>();
  const collected: Record<string, unknown[]> = { categories: [], products: [], articles: [], news: [], pages: [] };
  let site: unknown;
  let routes: unknown[] = [];
  snapshot.files.forEach((f, i) => {
    const value = results[i].value as object;
    if (f.into === 'site') site = value;
    else if (f.into === 'routes') {
      routes = value as unknown[];
      for (const r of routes) sourceOf.set(r as object, f.file);
    } else collected[f.into].push(value);
    sourceOf.set(value, f.file);
  });

  const catalogue = {
    root: snapshot.root,
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

function loadFile({ file, bytes, error }: DataFile, schema: z.ZodType): FileResult {
  if (!bytes) {
    const missing = error?.code === 'ENOENT';
    return {
      diagnostics: [
        {
          code: missing ? 'load/missing-file' : 'load/unreadable-file',
          severity: 'error',
          file,
          pointer: '',
          message: missing
            ? `The catalogue needs ${file}; create it (see the data layout in README).`
            : `Could not read ${file}: ${error?.message ?? 'unknown error'}.`,
        },
      ],
    };
  }
  const text = bytes.toString('utf8');
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

export type { Catalogue } from './catalogue.js';
export { locate } from './locate.js';
