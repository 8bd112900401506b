/**
 * A lean catalogue: what `site build` loads. Body blocks are most of a
 * catalogue's size (95 % of a synthetic 100,000-route one), yet each is shown
 * on one page only. So as soon as a product, article or news file has been
 * validated, its blocks are read for what the rest of the pipeline needs of
 * them (the links the check follows, the text the search indexes) and then
 * dropped; the page that shows them reads them back from the file
 * (`readBody`), refusing a file whose bytes are no longer those validated.
 */
import { readFileSync } from 'node:fs';
import type { BodyRef } from '../core/catalogue.js';
import type { Article, Block, Inline, NewsItem, Product } from '../core/schema.js';
import { digestOf } from './read.js';
import { stripBom } from './locate.js';
import { entitySearchText, type BodyKind } from '../core/search-text.js';

export const BODY_FIELD = { product: 'description', article: 'body', news: 'body' } as const satisfies Record<BodyKind, 'description' | 'body'>;

/**
 * Takes from a validated entity what later stages need of its blocks,
 * empties them, and says where they are. `path` is the file's absolute path,
 * `digest` the sha1 of the bytes validated, `maxText` the catalogue's
 * indexed-text cap (core/search-text.ts).
 */
export function dropBody(kind: BodyKind, entity: Product | Article | NewsItem, path: string, digest: string, maxText: number): BodyRef {
  const field = BODY_FIELD[kind];
  const blocks = (entity as unknown as Record<string, Block[]>)[field];
  const ref: BodyRef = { path, digest, field, searchText: entitySearchText(kind, entity, maxText), links: blockLinks(blocks, `/${field}`) };
  (entity as unknown as Record<string, Block[]>)[field] = [];
  return ref;
}

/** Every link in paragraphs and lists, with its JSON pointer: what the check's link rules read of a body. */
export function blockLinks(blocks: readonly Block[], base: string): Array<[string, string]> {
  const links: Array<[string, string]> = [];
  const rich = (value: string | readonly Inline[], ptr: string) => {
    if (typeof value === 'string') return;
    for (let i = 0; i < value.length; i++) {
      const inline = value[i];
      if (typeof inline !== 'string') links.push([`${ptr}/${i}/href`, inline.href]);
    }
  };
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b];
    if (block.type === 'paragraph') rich(block.text, `${base}/${b}/text`);
    else if (block.type === 'list') for (let i = 0; i < block.items.length; i++) rich(block.items[i], `${base}/${b}/items/${i}`);
  }
  return links;
}

/** The body could not be read back as validated. */
export class BodyChangedError extends Error {}

/**
 * The blocks a lean entity's file holds. The file must still have the bytes
 * that were validated (same sha1): then JSON.parse gives exactly what zod
 * gave, since block schemas are strict and have no defaults or transforms.
 */
export function readBody(ref: Pick<BodyRef, 'path' | 'digest' | 'field'>): Block[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(ref.path);
  } catch (err) {
    throw new BodyChangedError(`${ref.path} could not be read again to render it (${(err as Error).message}); run the build again`);
  }
  if (digestOf(bytes) !== ref.digest) throw new BodyChangedError(`${ref.path} changed during the build, after it was checked; run the build again`);
  return (JSON.parse(stripBom(bytes.toString('utf8'))) as Record<string, Block[]>)[ref.field];
}
