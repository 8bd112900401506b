/**
 * Generated product artwork: the catalogue has no photographs yet, so every
 * product gets an SVG in its category's colour with its name and latin name.
 * Gallery, zoom and social previews use it until real images are named in data/.
 */
import type { Product } from '../core/schema.js';
import type { SiteModel } from './model.js';
import { artworkPath, FILE_SLUG_EXPECTED, isFileSlug, LOGO_URL, SHARE_CARD_URL } from '../core/images.js';

export const ARTWORK_SIZE = { width: 800, height: 800 } as const;
const FALLBACK_COLOR = '#2f6b3a';

/** Escapes text for an XML text node or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}

/**
 * Refuses slugs that would put the file outside dist/images/products/ (the
 * emit stage writes the SVG at dist + url). `site check` reports them first
 * (check/unsafe-slug); this guards rendering a catalogue that skipped it.
 */
export function assertSafeSlug(slug: string, what: string): void {
  if (!isFileSlug(slug)) throw new Error(`${what}: slug "${slug}" cannot name a file; expected ${FILE_SLUG_EXPECTED}`);
}

/** Greedy word wrap into at most `maxLines` lines of about `width` characters. */
export function wrapWords(text: string, width: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && (line + ' ' + word).length > width) {
      lines.push(line);
      line = word;
    } else line = line ? line + ' ' + word : word;
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = kept[maxLines - 1].replace(/\s*\S*$/, '') + '…';
  return kept;
}

/** WCAG relative luminance of `#rrggbb`, to pick a readable text colour. */
function luminance(hex: string): number {
  const channel = (i: number): number => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The brand mark: the header draws it inline, and the build writes it as the favicon and the Organization's logo. */
export const LOGO_MARK = {
  url: LOGO_URL,
  background: '#1d4d2b',
  leaf: '#cfe8b8',
  /** In a 32×32 box. */
  path: 'M9 22c0-8 6-13 15-13-1 9-6 14-13 14 2-4 5-7 8-9-4 2-7 5-10 8z',
} as const;

/** LOGO_MARK as a file: 512 px, well above the 112 px Google asks of an Organization logo. */
export function logoSvg(): string {
  const { background, leaf, path } = LOGO_MARK;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 32 32">` +
    `<circle cx="16" cy="16" r="16" fill="${background}"/><path d="${path}" fill="${leaf}"/></svg>`
  );
}

export function artworkUrl(product: Product): string {
  assertSafeSlug(product.slug, `product ${product.id}`);
  return artworkPath(product.slug);
}

export function productArtwork(model: SiteModel, product: Product): { url: string; svg: string } {
  const url = artworkUrl(product);
  const color = model.categories.get(product.category)?.color ?? FALLBACK_COLOR;
  // White on dark colours, near-black on light ones: both keep a 4.5:1 contrast.
  const ink = luminance(color) > 0.18 ? '#14201a' : '#ffffff';
  const { width, height } = ARTWORK_SIZE;
  const lines = wrapWords(product.name, 16, 4);
  const longest = Math.max(...lines.map((l) => l.length));
  const size = Math.max(40, Math.min(84, Math.floor(660 / (longest * 0.56))));
  const lead = Math.round(size * 1.15);
  const top = Math.round(height / 2 - ((lines.length - 1) * lead) / 2 - 40);
  const text = lines.map((l, i) => `<text x="400" y="${top + i * lead}" font-size="${size}" font-weight="700">${escapeXml(l)}</text>`).join('');
  const latin = product.latinName.trim()
    ? `<text x="400" y="${top + (lines.length - 1) * lead + 80}" font-size="34" font-style="italic" opacity="0.9">${escapeXml(wrapWords(product.latinName, 34, 1)[0])}</text>`
    : '';
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(product.name)}">` +
    `<rect width="${width}" height="${height}" fill="${color}"/>` +
    `<circle cx="690" cy="110" r="230" fill="${ink}" opacity="0.08"/><circle cx="90" cy="720" r="170" fill="${ink}" opacity="0.06"/>` +
    `<g fill="${ink}" font-family="Helvetica, Arial, sans-serif" text-anchor="middle">${text}${latin}` +
    `<text x="400" y="740" font-size="26" letter-spacing="3" opacity="0.85">${escapeXml(model.site.brand.toUpperCase())}</text></g></svg>`;
  return { url, svg };
}

/**
 * The site's share card: the image of a page's social preview when the page
 * has no raster image of its own. Facebook, LinkedIn, X and WhatsApp show no
 * preview for an SVG og:image, and every image the catalogue has today is
 * generated SVG artwork. 1200×630 is the size those platforms crop to.
 */
export const SHARE_CARD = { url: SHARE_CARD_URL, width: 1200, height: 630 } as const;

/** The card's font family: the build ships its files (build/files/share-card.ts), so every machine draws the same card. */
export const CARD_FONT = 'Inter';

/** SHARE_CARD as SVG (build/files/share-card.ts rasterises it): the logo mark, the brand, the tagline and the company. */
export function shareCardSvg(site: { brand: string; tagline: string; contact: { company: string } }): string {
  const { width, height } = SHARE_CARD;
  const { background, leaf, path } = LOGO_MARK;
  const tagline = wrapWords(site.tagline, 38, 2)
    .map((line, i) => `<text x="96" y="${352 + i * 60}" font-size="46">${escapeXml(line)}</text>`)
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect width="${width}" height="${height}" fill="${background}"/>` +
    `<circle cx="1090" cy="90" r="300" fill="${leaf}" opacity="0.08"/><circle cx="1150" cy="600" r="180" fill="${leaf}" opacity="0.06"/>` +
    `<g transform="translate(96 96) scale(4.5)"><circle cx="16" cy="16" r="16" fill="${leaf}"/><path d="${path}" fill="${background}"/></g>` +
    `<g font-family="${CARD_FONT}" fill="#ffffff">` +
    `<text x="276" y="190" font-size="84" font-weight="700">${escapeXml(wrapWords(site.brand, 18, 1)[0])}</text>` +
    `<g fill="${leaf}">${tagline}</g>` +
    `<text x="96" y="556" font-size="32" letter-spacing="1" opacity="0.9">${escapeXml(site.contact.company)}</text>` +
    `</g></svg>`
  );
}
