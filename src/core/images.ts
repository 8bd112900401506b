/**
 * The site's image URLs that the build makes itself, and the rule for the
 * names it makes them from. Content's own images (data/images/) share the
 * /images/ folder, so the check needs these before anything is rendered.
 */

/** A name that is one segment of an image URL and needs no escaping there: a slug, a folder or file of data/images/. */
export const URL_SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * A product's slug names its artwork, /images/products/<slug>.svg, so it must
 * be one file name that stays in that folder. Capital letters and edge
 * hyphens are legacy and allowed; a slash, a backslash or `..` never is.
 */
export const isFileSlug = (slug: string): boolean => URL_SAFE_NAME.test(slug) && !slug.includes('..');

export const FILE_SLUG_EXPECTED = "letters, digits, '-', '_' or '.' (no '/', '\\' or '..')";

/** Where a product's generated artwork is published (the slug must pass isFileSlug). */
export const artworkPath = (slug: string): string => `/images/products/${slug}.svg`;

/** The brand mark as a file: the favicon and the Organization's logo. */
export const LOGO_URL = '/images/logo.svg';

/** The site's social share card (see SHARE_CARD in model/artwork.ts). */
export const SHARE_CARD_URL = '/images/share.png';

/**
 * The widths of the smaller copies the build makes of a photograph, in pixels: a phone's card up to a
 * gallery on a high-density screen (31rem at 2×). Wider screens and zoom load the original; a wider copy
 * would cost as much encoding as these together (docs/PERFORMANCE.md, "Photographs").
 */
export const VARIANT_WIDTHS = [320, 640, 960, 1280] as const;

/** A copy is made only where it saves something: at least a tenth of the original's width. */
const VARIANT_MAX_SHARE = 0.9;

/** The copies' format and quality: WebP at 80 is about a third of a JPEG at 90, and every current browser shows it. */
export const VARIANT_ENCODING = { format: 'webp', quality: 80 } as const;

/** Formats the build resizes; SVG scales by itself, and a GIF may be animated. */
const RESIZABLE = /\.(?:jpe?g|png|webp|avif)$/i;

/** An image of data/images/ as far as its copies are concerned: its URL and pixel size (upright). */
export interface SizedImage {
  url: string;
  width?: number;
  height?: number;
}

export interface ImageVariant {
  url: string;
  width: number;
  height: number;
}

/**
 * The smaller copies of a photograph, narrowest first: `<name>-<width>w.webp`
 * beside it (a readable name, as image search likes). Pure, so the render
 * stage names them in `srcset` while the emit stage makes them.
 */
export function variantsOf(image: SizedImage): ImageVariant[] {
  const { url, width, height } = image;
  if (!RESIZABLE.test(url) || width === undefined || height === undefined) return [];
  const stem = url.replace(/\.[^./]+$/, '');
  return VARIANT_WIDTHS.filter((w) => w <= width * VARIANT_MAX_SHARE).map((w) => ({
    url: `${stem}-${w}w.${VARIANT_ENCODING.format}`,
    width: w,
    height: Math.max(1, Math.round((w * height) / width)),
  }));
}

/**
 * An image's width and height as browsers lay it out, from what image-size read of its header: EXIF
 * orientations 5 to 8 turn the picture a quarter. Undefined for a header without a size.
 */
export function shownSize(read: { width: number; height: number; orientation?: number }): { width: number; height: number } | undefined {
  const { width, height, orientation } = read;
  if (!(width > 0 && height > 0)) return undefined;
  return orientation !== undefined && orientation >= 5 ? { width: height, height: width } : { width, height };
}

/** Whether two width-by-height pairs are one shape, their ratios within `tolerance` (a share of the second). */
export function sameShape(a: { width: number; height: number }, b: { width: number; height: number }, tolerance: number): boolean {
  const ratio = b.width / b.height;
  return Math.abs(a.width / a.height - ratio) / ratio <= tolerance;
}

/** `srcset` for a photograph: its copies, then the file itself at its own width; undefined when it has no copies. */
export function srcSetOf(image: SizedImage): string | undefined {
  const variants = variantsOf(image);
  if (variants.length === 0) return undefined;
  return [...variants.map((v) => `${v.url} ${v.width}w`), `${image.url} ${image.width}w`].join(', ');
}
