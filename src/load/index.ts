/**
 * The load stage: reads `data/` file by file, parses and validates every file
 * against its zod schema, and returns the catalogue or every problem found.
 * Nothing here knows about other files; cross-file rules are the check stage's.
 */
import type { z } from 'zod';
import type { Diagnostic } from '../core/diagnostics.js';
import type { Catalogue } from '../core/catalogue.js';
import { article, category, newsItem, page, product, routeRegistry, siteConfig } from '../core/schema.js';
import { fieldName, problemPointer, schemaProblems } from './issues.js';
import { parseJson } from './json.js';
import { createLocator } from './locate.js';
import { firstBadByte, invalidUtf8 } from './utf8.js';
import { longTexts, shownBytes, type DataLimits } from './limits.js';
import { compareDiagnostics } from './order.js';
import { bytesOf, ChangedFileError, COLLECTION_DIRS, IMAGE_EXTENSIONS, IMAGES_DIR, readDataDir, type DataFile, type DataSnapshot } from './read.js';
import { join } from 'node:path';
import type { Product } from '../core/schema.js';
import { dropBody } from './lean.js';
import { assembleCatalogue, type ValidatedFile } from './assemble.js';
import { valueDigest } from './value-digest.js';
import { indexedTextChars, type BodyKind } from '../core/search-text.js';
import { severityOf } from '../core/codes.js';

export interface LoadResult {
  /** Null only when a file could not be read or validated; `diagnostics` then says why. */
  catalogue: Catalogue | null;
  /** Errors (the catalogue is then null) and warnings (files the layout does not know), sorted. */
  diagnostics: Diagnostic[];
  /** Each file's own result, in the snapshot's order (absent when the data directory is missing): what a later run may reuse. */
  files?: ValidatedFile[];
  /** What every file's result depends on besides its bytes (see validationContext). */
  context?: string;
  /** Files whose result was taken from `ValidateOptions.previous` rather than validated. */
  reused?: number;
}

/**
 * Results of an earlier load, each reused for a file at the same path with
 * the same bytes (sha1) when `context` is this load's: they are then exactly
 * what validating that file again would give.
 */
export interface PreviousFiles {
  context: string;
  get(rel: string): { digest: string; result: ValidatedFile } | undefined;
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

export async function loadCatalogue(dataDir: string, options: ValidateOptions = {}): Promise<LoadResult> {
  return validateData(readDataDir(dataDir), options);
}

export interface ValidateOptions {
  /**
   * Drop the body blocks of products, articles and news once validated,
   * keeping what the check and the search index need of them and where to
   * read them back (`Catalogue.bodies`; src/load/lean.ts). What `site build`
   * loads: memory stays that of the catalogue's structure, not its text.
   */
  lean?: boolean;
  /** Results to reuse instead of validating a file again (see PreviousFiles). */
  previous?: PreviousFiles;
  /** Hash each validated value (`valueDigest`): for a check whose results are kept, so that the hash is made once a file. */
  digests?: boolean;
}

const BODY_KIND: Partial<Record<DataFile['into'], BodyKind>> = { products: 'product', articles: 'article', news: 'news' };

/** Parses and validates a snapshot of `data/` (see `readDataDir`): the load stage without its I/O (but for files the snapshot did not hold). */
export function validateData(snapshot: DataSnapshot, options: ValidateOptions = {}): LoadResult {
  const { base } = snapshot;
  const label = (rel: string) => (base === '.' ? rel : `${base}/${rel}`);
  if (!snapshot.exists) {
    return {
      catalogue: null,
      diagnostics: [
        {
          code: 'load/missing-data-dir',
          severity: severityOf('load/missing-data-dir'),
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
      severity: severityOf('load/unexpected-file'),
      file: label(rel),
      pointer: '',
      message: `${label(rel)} is not part of the catalogue's layout (site.json, routes.json, *.json files in ${COLLECTION_DIRS.map((n) => `${n}/`).join(', ')}, and image files in ${IMAGES_DIR}/: ${IMAGE_EXTENSIONS.join(', ')}, named with letters, digits, '-', '_' and '.', not symbolic links), so it is ignored; move it out or fix its name.`,
    }),
  );
  const links = snapshot.links.map(
    ({ rel, target }): Diagnostic => ({
      code: 'load/link-outside-data',
      severity: severityOf('load/link-outside-data'),
      file: label(rel),
      pointer: '',
      message: `${label(rel)} is a symbolic link to ${target}, outside the data directory ${base}; the build reads and publishes only what ${base}/ holds, so it is not read. Copy the file into ${base}/ instead of linking to it.`,
    }),
  );
  // The search text cap depends on the number of documents, known from the listing before any file is read.
  const maxText = indexedTextChars(snapshot.files.filter((f) => BODY_KIND[f.into] !== undefined).length);
  const context = validationContext(snapshot, options.lean === true, maxText);
  const previous = options.previous?.context === context ? options.previous : undefined;
  let reused = 0;
  const results = snapshot.files.map((f): ValidatedFile => {
    const before = previous && f.digest !== undefined && !f.tooLarge ? previous.get(f.rel) : undefined;
    if (before && before.digest === f.digest && !before.result.unread) {
      reused++;
      return before.result;
    }
    const result = loadFile(f, snapshot, SCHEMAS[f.into]);
    const kind = BODY_KIND[f.into];
    if (options.lean && kind !== undefined && result.value !== undefined) {
      result.body = dropBody(kind, result.value as Product, join(snapshot.root, f.rel), f.digest!, maxText);
    }
    if (options.digests) {
      const digest = valueDigest(result.value);
      if (digest !== undefined) result.valueDigest = digest;
    }
    return result;
  });

  const diagnostics = [...results.flatMap((r) => r.diagnostics), ...strays, ...links].sort(compareDiagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { catalogue: null, diagnostics, files: results, context, reused };

  const catalogue = assembleCatalogue(snapshot, results, options.lean === true);
  return { catalogue, diagnostics, files: results, context, reused };
}

/**
 * Everything a file's result depends on besides its path and bytes and the
 * code: whether the load is lean, where the data directory is and how
 * diagnostics name it, site.json's limits, and the search text's cap (from
 * the number of documents). The code is the caller's to key by.
 */
export function validationContext(snapshot: Pick<DataSnapshot, 'root' | 'base' | 'limits'>, lean: boolean, maxText: number): string {
  const { fileBytes, routesBytes, textChars } = snapshot.limits;
  return JSON.stringify([lean, snapshot.root, snapshot.base, fileBytes, routesBytes, textChars, maxText]);
}

function loadFile(f: DataFile, snapshot: DataSnapshot, schema: z.ZodType): ValidatedFile {
  const { file, error } = f;
  if (f.tooLarge) return { diagnostics: [tooLarge(f)], unread: true };
  let bytes: Buffer | undefined;
  let changed: ChangedFileError | undefined;
  try {
    if (f.digest !== undefined) bytes = bytesOf(snapshot, f);
  } catch (err) {
    if (!(err instanceof ChangedFileError)) throw err;
    changed = err;
  }
  if (!bytes) {
    const missing = error?.code === 'ENOENT';
    return {
      unread: true,
      diagnostics: [
        {
          code: missing ? 'load/missing-file' : 'load/unreadable-file',
          severity: severityOf(missing ? 'load/missing-file' : 'load/unreadable-file'),
          file,
          pointer: '',
          message: missing
            ? `The catalogue needs ${file}; create it (see the data layout in README).`
            : `Could not read ${file}: ${changed?.message ?? error?.message ?? 'unknown error'}.`,
        },
      ],
    };
  }
  const bad = firstBadByte(bytes);
  if (bad) return { diagnostics: [invalidUtf8(file, bad)] };
  const text = bytes.toString('utf8');
  const parsed = parseJson(text, file);
  if (!parsed.ok) return { diagnostics: [parsed.diagnostic] };
  const result = schema.safeParse(parsed.value);
  if (result.success) return { value: result.data, diagnostics: longTextWarnings(file, bytes.length, parsed, snapshot.limits) };

  // Positions only now that there is something to report.
  const problems = schemaProblems(result.error.issues);
  const pointers = problems.map((p) => problemPointer(p.path));
  const positions = createLocator(parsed.text).locateMany(pointers);
  return {
    diagnostics: problems.map(
      (p, i): Diagnostic => ({
        code: 'load/schema',
        severity: severityOf('load/schema'),
        file,
        pointer: pointers[i],
        ...positions[i],
        message: `${fieldName(p.path)}: ${p.message}.`,
      }),
    ),
  };
}

/** A file over limits.fileBytes (routes.json: limits.routesBytes), which was not read (src/load/limits.ts). */
function tooLarge(f: DataFile): Diagnostic {
  const { size, limit, field } = f.tooLarge!;
  return {
    code: 'load/file-too-large',
    severity: severityOf('load/file-too-large'),
    file: f.file,
    pointer: '',
    message:
      `${f.file} is ${shownBytes(size)}, over the limit of ${shownBytes(limit)} (${limit} bytes) for a data file (limits.${field} in site.json), so it is not read: ` +
      'a file this large is most likely a paste or export accident, and its page would be as large. Shorten it, or raise the limit if it is meant to be this large.',
  };
}

/** A warning for each text of a file longer than limits.textChars; a file with fewer bytes than that has none (a character takes at least a byte). */
function longTextWarnings(file: string, size: number, parsed: { value: unknown; text: string }, limits: DataLimits): Diagnostic[] {
  if (size <= limits.textChars) return [];
  const paths = longTexts(parsed.value, limits.textChars);
  if (paths.length === 0) return [];
  const pointers = paths.map((p) => problemPointer(p));
  const positions = createLocator(parsed.text).locateMany(pointers);
  return paths.map((path, i): Diagnostic => {
    const length = (pointerValue(parsed.value, path) as string).length;
    return {
      code: 'load/long-text',
      severity: severityOf('load/long-text'),
      file,
      pointer: pointers[i],
      ...positions[i],
      message: `${fieldName(path)}: a text of ${length.toLocaleString('en-US')} characters, over the limit of ${limits.textChars.toLocaleString('en-US')} (limits.textChars in site.json); shorten it or split it up.`,
    };
  });
}

function pointerValue(value: unknown, path: ReadonlyArray<string | number>): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);
}

export type { Catalogue } from '../core/catalogue.js';
export type { ValidatedFile } from './assemble.js';
export { locate } from './locate.js';
