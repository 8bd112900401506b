/**
 * A copy of a catalogue in which the first N products (by file name) have a
 * photograph each: a 2400×1800 JPEG of blurred noise in data/images/products/,
 * named in the product's `images`. Noise is the encoder's worst case, so the
 * cost of the build's WebP copies measured with it is an upper bound.
 *
 * The output is cached: a marker file records what it was made from.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

export const PHOTO_SIZE = { width: 2400, height: 1800 } as const;

export interface PhotoCatalogue {
  dir: string;
  photos: number;
  bytes: number;
  cached: boolean;
}

/** A fingerprint of the source's products, so a cached copy is remade when they change. */
async function fingerprint(from: string): Promise<string> {
  const hash = createHash('sha1');
  for (const name of (await readdir(path.join(from, 'products'))).sort()) hash.update(name).update(await readFile(path.join(from, 'products', name)));
  hash.update(await readFile(path.join(from, 'routes.json')));
  return hash.digest('hex');
}

/** Deterministic noise (a linear congruential generator seeded by the photo's number), blurred like a soft photograph. */
async function photo(seed: number): Promise<Buffer> {
  const { width, height } = PHOTO_SIZE;
  const pixels = Buffer.alloc(width * height * 3);
  let x = seed * 7919 + 1;
  for (let i = 0; i < pixels.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = (x >> 16) & 255;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .blur(3)
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function makePhotoCatalogue(from: string, out: string, count: number): Promise<PhotoCatalogue> {
  const marker = path.join(out, '.photos.json');
  const print = await fingerprint(from);
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8')) as { fingerprint: string; count: number; photos: number; bytes: number };
    if (m.fingerprint === print && m.count === count) return { dir: out, photos: m.photos, bytes: m.bytes, cached: true };
  }
  const temp = `${out}.making`;
  await rm(temp, { recursive: true, force: true });
  await cp(from, temp, { recursive: true });
  await mkdir(path.join(temp, 'images', 'products'), { recursive: true });
  const files = (await readdir(path.join(temp, 'products')))
    .filter((n) => n.endsWith('.json'))
    .sort()
    .slice(0, count);
  let bytes = 0;
  for (const [i, file] of files.entries()) {
    const name = `${file.replace(/\.json$/, '')}-photo.jpg`;
    const jpeg = await photo(i);
    bytes += jpeg.length;
    await writeFile(path.join(temp, 'images', 'products', name), jpeg);
    const productFile = path.join(temp, 'products', file);
    const product = JSON.parse(await readFile(productFile, 'utf8'));
    product.images = [{ src: `/images/products/${name}`, alt: `${product.name} powder`, ...PHOTO_SIZE }];
    await writeFile(productFile, JSON.stringify(product, null, 2));
  }
  await writeFile(path.join(temp, '.photos.json'), JSON.stringify({ fingerprint: print, count, photos: files.length, bytes }));
  await rm(out, { recursive: true, force: true });
  await rename(temp, out);
  return { dir: out, photos: files.length, bytes, cached: false };
}
