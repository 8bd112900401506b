/**
 * The catalogue from each file's validated result: the last step of a load,
 * apart so that a check whose results all come from its cache can assemble
 * the catalogue without importing zod (src/check/state.ts).
 */
import { join } from 'node:path';
import type { BodyRef, Catalogue } from '../core/catalogue.js';
import type { Diagnostic } from '../core/diagnostics.js';
import type { DataFile, DataSnapshot } from './read.js';

/** One file's part of a load: its validated entity, its own diagnostics, and in a lean load its body reference. */
export interface ValidatedFile {
  /** Undefined when the file did not pass (its diagnostics say why). */
  value?: unknown;
  diagnostics: Diagnostic[];
  /** Where the dropped body is, in a lean load (its `links` included). */
  body?: BodyRef;
  /** The file's bytes could not be had (missing, unreadable, over the limit): this says nothing about any bytes, so it is never reused. */
  unread?: true;
  /** The hash of `value`'s JSON, when the load was asked for it (see Catalogue.valueDigests). */
  valueDigest?: string;
}

/** What assembling needs of a snapshot. */
export interface AssemblyPlan {
  root: string;
  files: ReadonlyArray<Pick<DataFile, 'into' | 'file'>>;
  images: DataSnapshot['images'];
}

/** The catalogue of results that all passed (`results[i]` is `plan.files[i]`'s); `lean` when their bodies were dropped. */
export function assembleCatalogue(plan: AssemblyPlan, results: readonly ValidatedFile[], lean: boolean): Catalogue {
  const sourceOf = new WeakMap<object, string>();
  const bodies = lean ? new WeakMap<object, BodyRef>() : undefined;
  const valueDigests = results.some((r) => r.valueDigest !== undefined) ? new WeakMap<object, string>() : undefined;
  const collected: Record<string, unknown[]> = { categories: [], products: [], articles: [], news: [], pages: [] };
  let site: unknown;
  let routes: unknown[] = [];
  plan.files.forEach((f, i) => {
    const value = results[i].value as object;
    if (f.into === 'site') site = value;
    else if (f.into === 'routes') {
      routes = value as unknown[];
      for (const r of routes) sourceOf.set(r as object, f.file);
    } else collected[f.into].push(value);
    sourceOf.set(value, f.file);
    if (results[i].body) bodies!.set(value, results[i].body!);
    if (results[i].valueDigest !== undefined) valueDigests?.set(value, results[i].valueDigest!);
  });

  return {
    root: plan.root,
    site,
    routes,
    categories: collected.categories,
    products: collected.products,
    articles: collected.articles,
    news: collected.news,
    pages: collected.pages,
    images: plan.images.map(({ rel, file, size, digest, width, height, scripted }) => ({
      url: `/${rel}`,
      file,
      path: join(plan.root, rel),
      size,
      digest,
      ...(width !== undefined && { width, height }),
      ...(scripted && { scripted }),
    })),
    sourceOf,
    ...(bodies && { bodies }),
    ...(valueDigests && { valueDigests }),
  } as Catalogue;
}
