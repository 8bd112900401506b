/**
 * Rules about images: every image content names is a file of data/images/
 * (published at /images/<path>), an image the build makes, or an https URL;
 * the files of data/images/ do not take the URLs of the build's own images,
 * cannot run code, and have the shape content declares for them.
 */
import type { Diagnostic } from '../core/diagnostics.js';
import { pointer } from '../core/diagnostics.js';
import { artworkPath, isFileSlug, LOGO_URL, sameShape, SHARE_CARD_URL, variantsOf } from '../core/images.js';
import type { CatalogueImage } from '../core/catalogue.js';
import type { Image } from '../core/schema.js';
import { diagnostic, type CheckContext } from './context.js';
import { judgeContentUrl } from '../core/content-url.js';
import { shownUrl } from './references.js';

/** Aspect ratios this close are the same shape (a file saved at twice the declared size is fine). */
const RATIO_TOLERANCE = 0.01;

/**
 * A file the build does not resize (SVG, GIF) is published as it is, and
 * every page that shows it (a product's card is on its lists, its category's
 * and the home page) downloads all of it: past these, it costs buyers on
 * phones seconds for nothing they see.
 */
export const HEAVY_IMAGE = { bytes: 400 * 1024, pixels: 2560 } as const;

/** A photograph the build makes smaller copies of: wide screens, zoom and link previews still load the file itself. */
export const HEAVY_PHOTO = { bytes: 1024 * 1024, pixels: 4096 } as const;

export function checkImages(ctx: CheckContext): Diagnostic[] {
  const out: Diagnostic[] = [];
  const { catalogue } = ctx;
  const files = new Map(catalogue.images.map((i) => [i.url, i]));
  const made = new Map<string, string>([
    [LOGO_URL, "the site's logo"],
    [SHARE_CARD_URL, "the site's share card"],
  ]);
  for (const p of catalogue.products) if (isFileSlug(p.slug)) made.set(artworkPath(p.slug), `the artwork of product "${p.name}"`);
  for (const image of catalogue.images) {
    for (const v of variantsOf(image)) {
      const other = made.get(v.url);
      // Two photographs of one name in one folder (a.jpg, a.png) would make the same copies.
      if (other === undefined) made.set(v.url, `a ${v.width}-pixel copy of ${image.file}`);
      else
        out.push(
          diagnostic(
            'check/image-clash',
            image.file,
            '',
            `The build's ${v.width}-pixel copy of this file, ${v.url}, would be ${other} as well; rename one of the two files.`,
          ),
        );
    }
  }

  for (const image of catalogue.images) {
    const taken = made.get(image.url);
    if (taken !== undefined) {
      out.push(
        diagnostic(
          'check/image-clash',
          image.file,
          '',
          `This file would be published at ${image.url}, where the build writes ${taken}; rename the file (and the src that names it).`,
        ),
      );
    }
    const heavy = heaviness(image);
    if (heavy) out.push(diagnostic('check/image-heavy', image.file, '', heavy));
    if (image.scripted) {
      out.push(
        diagnostic(
          'check/unsafe-svg',
          image.file,
          '',
          `This SVG has a script, an event handler, a javascript: URL or embedded HTML: opened at ${image.url} it would run on the site's own origin. Remove them, or save the image as PNG or WebP.`,
        ),
      );
    }
  }

  const used = new Set<string>();
  const check = (file: string, ptr: string, image: Image) => {
    // Judged as links are (src/core/content-url.ts), as browsers read them.
    const judged = judgeContentUrl(image.src);
    if (!judged.ok) {
      out.push(
        diagnostic(
          'check/unsafe-image',
          file,
          `${ptr}/src`,
          `Image ${shownUrl(image.src)} ${judged.why}, so it is not shown: an image is a file of data/images/ (src "/images/<file>") or an https: URL.`,
        ),
      );
      return;
    }
    const src = judged.url;
    const url = src.replace(/[?#].*$/, '');
    if (judged.scheme === 'https') return;
    // http: too: an https page's browser blocks or rewrites it (mixed content).
    if (judged.scheme !== undefined) {
      out.push(
        diagnostic(
          'check/unsafe-image',
          file,
          `${ptr}/src`,
          `Image "${src.slice(0, 80)}" is not shown: an image is a file of data/images/ (src "/images/<file>") or an https: URL.`,
        ),
      );
      return;
    }
    if (!src.startsWith('/')) {
      const name = src.replace(/^(\.\/)+/, '');
      out.push(
        diagnostic(
          'check/missing-image',
          file,
          `${ptr}/src`,
          `Image "${src}" is a relative path, which each page would resolve against its own path; write it from the site's root, e.g. "/images/${name}" for data/images/${name}.`,
        ),
      );
      return;
    }
    const published = files.get(url);
    if (published) {
      used.add(url);
      const mismatch = shapeMismatch(published, image);
      if (mismatch) out.push(diagnostic('check/image-size-mismatch', file, ptr, mismatch));
      return;
    }
    if (made.has(url)) return;
    const where = url.startsWith('/images/') ? `data${url}` : `data/images${url}`;
    out.push(
      diagnostic(
        'check/missing-image',
        file,
        `${ptr}/src`,
        url.startsWith('/images/')
          ? `Image "${src}" names no file of data/images/; add ${where} or correct the path.`
          : `Image "${src}" is outside /images/, where the site publishes images; put the file at ${where} and write src "/images${url}".`,
      ),
    );
  };

  for (const p of catalogue.products) p.images.forEach((image, i) => check(ctx.fileOf(p), pointer('images', i), image));
  for (const n of catalogue.news) if (n.image) check(ctx.fileOf(n), '/image', n.image);
  for (const pg of catalogue.pages) pg.banners.forEach((b, i) => b.image && check(ctx.fileOf(pg), pointer('banners', i, 'image'), b.image));

  for (const image of catalogue.images) {
    if (!used.has(image.url) && !made.has(image.url)) {
      out.push(diagnostic('check/unused-image', image.file, '', `This file is published at ${image.url}, but no product, news item or banner shows it.`));
    }
  }
  return out;
}

/** What to tell an editor when a file is heavier than a page should carry, or undefined when it is not. */
function heaviness(image: CatalogueImage): string | undefined {
  const resized = variantsOf(image).length > 0;
  const limit = resized ? HEAVY_PHOTO : HEAVY_IMAGE;
  const big = image.size > limit.bytes;
  const wide = Math.max(image.width ?? 0, image.height ?? 0) > limit.pixels;
  if (!big && !wide) return undefined;
  const size = `${(image.size / 1024).toFixed(0)} KB${image.width !== undefined ? `, ${image.width}×${image.height} pixels` : ''}`;
  const who = resized
    ? 'The build makes smaller copies for lists and phones, but wide screens, zoom and link previews load this file itself'
    : "The build publishes it as it is, and every page that shows it downloads all of it (a product's image is on its lists too)";
  return `This image is ${size}. ${who}. Save it at most ${limit.pixels} pixels on its longer side and under ${limit.bytes / 1024} KB (JPEG quality about 80, or WebP).`;
}

/** What to tell an editor when a file's shape is not the one declared for it, or undefined when it is. */
function shapeMismatch(file: CatalogueImage, declared: Image): string | undefined {
  if (file.width === undefined || file.height === undefined) return undefined;
  if (sameShape(declared, { width: file.width, height: file.height }, RATIO_TOLERANCE)) return undefined;
  return (
    `Image ${file.url} is ${file.width}×${file.height} pixels, but width ${declared.width} and height ${declared.height} are declared, another shape: ` +
    `browsers keep the declared shape free while it loads, so the page jumps when it arrives. Declare ${file.width} and ${file.height}.`
  );
}
