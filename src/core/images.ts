/**
 * The site's image URLs that the build makes itself, and the rule for the
 * names it makes them from. Content's own images (data/images/) share the
 * /images/ folder, so the check needs these before anything is rendered.
 */

/**
 * A product's slug names its artwork, /images/products/<slug>.svg, so it must
 * be one file name that stays in that folder. Capital letters and edge
 * hyphens are legacy and allowed; a slash, a backslash or `..` never is.
 */
export const isFileSlug = (slug: string): boolean => /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(slug) && !slug.includes('..');

export const FILE_SLUG_EXPECTED = "letters, digits, '-', '_' or '.' (no '/', '\\' or '..')";

/** Where a product's generated artwork is published (the slug must pass isFileSlug). */
export const artworkPath = (slug: string): string => `/images/products/${slug}.svg`;

/** The brand mark as a file: the favicon and the Organization's logo. */
export const LOGO_URL = '/images/logo.svg';

/** The site's social share card (see SHARE_CARD in render/artwork.ts). */
export const SHARE_CARD_URL = '/images/share.png';
