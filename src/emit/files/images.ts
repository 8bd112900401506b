/**
 * Publishes the files of data/images/ at their URLs, and beside each
 * photograph the smaller WebP copies its `srcset` names (core/images.ts).
 * Each file's bytes must still be those the check measured (its sha1): a
 * photo replaced mid-build could otherwise have another shape than the one
 * the check approved, or copies of another picture.
 *
 * Encoding is the slow part (tens of milliseconds a copy), so copies are
 * kept in the build cache by the original's sha1, the width and the encoder's
 * version: a rebuild, or CI with a cached node_modules/.cache, encodes only
 * the photographs that changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SharpFunction from 'sharp';
import type { Sharp } from 'sharp';
import { VARIANT_ENCODING, variantsOf, type ImageVariant } from '../../core/images.js';
import type { CatalogueImage } from '../../core/catalogue.js';
import { digestOf } from '../../load/read.js';
import type { SiteFile, SiteWriter } from '../output/site-writer.js';

/** Writes every image and its copies; resolves to the files written, relative to the output folder. */
export async function publishImages(writer: SiteWriter, images: readonly CatalogueImage[], cacheDir?: string): Promise<string[]> {
  const written: string[] = [];
  // One photograph at a time, while the pages render: each can be megabytes, and its copies already use every core.
  for (const image of images) {
    const bytes = await readFile(image.path);
    if (bytes.length !== image.size || digestOf(bytes) !== image.digest)
      throw new Error(`${image.path} changed during the build, after it was checked; run the build again`);
    const variants = variantsOf(image);
    const copies = variants.length === 0 ? [] : await resizedCopies(bytes, image, variants, cacheDir);
    written.push(...(await writer.write([{ path: image.url.slice(1), contents: bytes }, ...copies])));
  }
  if (cacheDir !== undefined) await pruneCopies(path.join(cacheDir, 'images'));
  return written;
}

/** A cached copy no build has used for this long goes: photos get replaced, and the cache would only grow. */
export const COPY_CACHE_DAYS = 30;

/** Removes cached copies unused for COPY_CACHE_DAYS (a copy used is touched, see resizedCopies). Failures only cost the cache. */
async function pruneCopies(dir: string): Promise<void> {
  const before = Date.now() - COPY_CACHE_DAYS * 86_400_000;
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const file = path.join(dir, name);
      const st = await stat(file).catch(() => undefined);
      if (st?.isFile() && st.mtimeMs < before) await unlink(file).catch(() => undefined);
    }),
  );
}

/** The copies of one photograph, from the cache or encoded now (and then cached). */
async function resizedCopies(bytes: Buffer, image: CatalogueImage, variants: readonly ImageVariant[], cacheDir: string | undefined): Promise<SiteFile[]> {
  const sharp = loadSharp();
  let decoded: Sharp | undefined;
  return Promise.all(
    variants.map(async (v): Promise<SiteFile> => {
      const cached =
        cacheDir &&
        path.join(
          cacheDir,
          'images',
          `${image.digest}-${v.width}w-${VARIANT_ENCODING.format}${VARIANT_ENCODING.quality}-sharp${sharp.versions.sharp}.${VARIANT_ENCODING.format}`,
        );
      if (cached) {
        const hit = await readFile(cached).catch(() => undefined);
        if (hit) {
          const now = new Date();
          await utimes(cached, now, now).catch(() => undefined); // used: kept by pruneCopies
          return { path: v.url.slice(1), contents: hit };
        }
      }
      // rotate() without an angle turns the picture upright by its EXIF orientation, as browsers show the original.
      decoded ??= sharp(bytes, { failOn: 'error' }).rotate();
      const contents = await decoded.clone().resize({ width: v.width }).webp({ quality: VARIANT_ENCODING.quality }).toBuffer();
      if (cached) await storeAtomically(cached, contents);
      return { path: v.url.slice(1), contents };
    }),
  );
}

/** sharp, loaded when a photograph needs copies: a catalogue without any must not pay for its import. */
let sharpModule: typeof SharpFunction | undefined;
function loadSharp(): typeof SharpFunction {
  sharpModule ??= createRequire(import.meta.url)('sharp') as typeof SharpFunction;
  return sharpModule;
}

/** Written beside, then renamed: a build running at the same time never reads half a copy. A failure only costs the cache. */
async function storeAtomically(file: string, contents: Buffer): Promise<void> {
  try {
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(temp, contents);
    await rename(temp, file);
  } catch {
    // a read-only or full cache folder: the build goes on without it
  }
}
