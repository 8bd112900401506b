/**
 * The share card as PNG (see SHARE_CARD in model/artwork.ts). Rasterised by
 * resvg (@resvg/resvg-js): a self-contained SVG renderer, prebuilt for each
 * platform, that draws the same pixels for the same SVG and fonts. A browser
 * would do it too, but the build must not need one. It runs on a thread of
 * resvg's own: the build starts it with the pages and writes it with the
 * sitemap.
 *
 * The fonts are the ones the build ships (Inter, from @expo-google-fonts/inter,
 * whose TrueType files resvg reads; the @fontsource packages have only WOFF),
 * never the machine's: with the system's fonts the card's bytes depended on
 * what the building machine had installed, and a machine with none (a slim CI
 * image) drew a card without a word on it.
 */
import { createRequire } from 'node:module';
import type { renderAsync as RenderAsync } from '@resvg/resvg-js';
import { CARD_FONT, shareCardSvg } from '../../model/artwork.js';

const require = createRequire(import.meta.url);

/** The TrueType files of the weights the card uses (regular and bold). */
export const CARD_FONT_FILES: readonly string[] = ['400Regular/Inter_400Regular.ttf', '700Bold/Inter_700Bold.ttf'].map((file) =>
  require.resolve(`@expo-google-fonts/inter/${file}`),
);

type CardSite = Parameters<typeof shareCardSvg>[0];

/** The card drawn (its pixels, or asPng()). resvg is loaded on the first card, not with the build's modules. */
export function shareCardImage(site: CardSite): ReturnType<typeof RenderAsync> {
  const { renderAsync } = require('@resvg/resvg-js') as { renderAsync: typeof RenderAsync };
  return renderAsync(shareCardSvg(site), {
    font: { loadSystemFonts: false, fontFiles: [...CARD_FONT_FILES], defaultFontFamily: CARD_FONT, sansSerifFamily: CARD_FONT },
  });
}

export async function shareCardPng(site: CardSite): Promise<Uint8Array> {
  return (await shareCardImage(site)).asPng();
}
