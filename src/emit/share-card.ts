/**
 * The share card as PNG (see SHARE_CARD in render/artwork.ts). Rasterised by
 * resvg (@resvg/resvg-js): a self-contained SVG renderer, prebuilt for each
 * platform, that draws the same pixels for the same SVG and fonts. A browser
 * would do it too, but the build must not need one. About 40 ms, most of it
 * reading the system's fonts, on a thread of resvg's own: the build starts it
 * with the pages and writes it with the sitemap.
 */
import { renderAsync } from '@resvg/resvg-js';
import { shareCardSvg } from '../render/artwork.js';

export async function shareCardPng(site: Parameters<typeof shareCardSvg>[0]): Promise<Uint8Array> {
  // The system's fonts: the card names families that Debian and most Linux images have, then generic sans-serif.
  const image = await renderAsync(shareCardSvg(site), { font: { loadSystemFonts: true, sansSerifFamily: 'DejaVu Sans', defaultFontFamily: 'DejaVu Sans' } });
  return image.asPng();
}
