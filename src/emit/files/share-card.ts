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
 *
 * Given the build cache, the PNG is kept there under a hash of what decides
 * its pixels (the SVG, resvg's version, the fonts' bytes): a build whose card
 * did not change neither loads resvg (its native binding and platform probe
 * cost the main thread 40-60 ms) nor draws it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { renderAsync as RenderAsync } from '@resvg/resvg-js';
import { CARD_FONT, shareCardSvg } from '../../model/artwork.js';
import { cachedBytes } from '../cache-files.js';

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

/** The card as PNG bytes; through the build cache in `cacheDir` when given. */
export async function shareCardPng(site: CardSite, cacheDir?: string): Promise<Uint8Array> {
  const draw = async () => (await shareCardImage(site)).asPng();
  if (cacheDir === undefined) return draw();
  return cachedBytes(path.join(cacheDir, 'share-cards', `${cardKey(shareCardSvg(site))}.png`), KEEP, draw);
}

const FORMAT = 'site-share-card/1';
/** Cards kept: those of a few catalogues' site settings. */
const KEEP = 8;

/** What decides the card's pixels besides its SVG, read once a process. */
let renderer: string | undefined;

function cardKey(svg: string): string {
  if (renderer === undefined) {
    const h = createHash('sha256');
    h.update(readFileSync(path.join(path.dirname(require.resolve('@resvg/resvg-js')), 'package.json')));
    for (const font of CARD_FONT_FILES) h.update(readFileSync(font));
    renderer = h.digest('hex');
  }
  return createHash('sha256').update(`${FORMAT}\0${renderer}\0${svg}`).digest('hex').slice(0, 32);
}
