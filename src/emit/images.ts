/**
 * Publishes the files of data/images/ at their URLs. Each file's bytes must
 * still be those the check measured (its sha1): a photo replaced mid-build
 * could otherwise have another shape than the one the check approved.
 */
import { readFile } from 'node:fs/promises';
import { digestOf } from '../load/read.js';
import type { CatalogueImage } from '../load/catalogue.js';
import type { SiteWriter } from './site-files.js';

/** Writes every image; resolves to the files written, relative to the output folder. */
export async function publishImages(writer: SiteWriter, images: readonly CatalogueImage[]): Promise<string[]> {
  const written: string[] = [];
  // One at a time, while the pages render: photographs can be megabytes each, and a few are all a catalogue has.
  for (const image of images) {
    const bytes = await readFile(image.path);
    if (bytes.length !== image.size || digestOf(bytes) !== image.digest) throw new Error(`${image.path} changed during the build, after it was checked; run the build again`);
    written.push(...(await writer.write([{ path: image.url.slice(1), contents: bytes }])));
  }
  return written;
}
