/**
 * Social previews (og:image, twitter:image): Facebook, LinkedIn, X and
 * WhatsApp show no preview for an SVG. The build picks its share card by
 * this test and the audit flags pages by it, so both read a URL alike.
 */
export const isSvgUrl = (url: string): boolean => /\.svg(?:[?#]|$)/i.test(url);
