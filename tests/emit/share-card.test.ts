import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderAsync } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { SHARE_CARD, shareCardSvg } from '../../src/model/artwork.js';
import { CARD_FONT_FILES, shareCardImage, shareCardPng } from '../../src/emit/files/share-card.js';

const site = JSON.parse(readFileSync(new URL('../../data/site.json', import.meta.url), 'utf8')) as Parameters<typeof shareCardSvg>[0];

/** Pixels (RGBA) that differ between two images of one size, inside a box. */
function differing(a: Uint8Array, b: Uint8Array, width: number, box: { x0: number; y0: number; x1: number; y1: number }): number {
  let n = 0;
  for (let y = box.y0; y < box.y1; y++) {
    for (let x = box.x0; x < box.x1; x++) {
      const i = (y * width + x) * 4;
      if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
    }
  }
  return n;
}

describe('share card', () => {
  it('draws its words with the font the build ships, whatever fonts the machine has', async () => {
    for (const file of CARD_FONT_FILES) expect(readFileSync(file).subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0])); // TrueType
    const card = await shareCardImage(site);
    expect([card.width, card.height]).toEqual([SHARE_CARD.width, SHARE_CARD.height]);
    // The same card with no font at all: resvg then draws no text, so what differs is the text the shipped font drew.
    const bare = await renderAsync(shareCardSvg(site), { font: { loadSystemFonts: false } });
    const brand = differing(card.pixels, bare.pixels, card.width, { x0: 276, y0: 110, x1: 1000, y1: 210 });
    const tagline = differing(card.pixels, bare.pixels, card.width, { x0: 96, y0: 300, x1: 1150, y1: 430 });
    const company = differing(card.pixels, bare.pixels, card.width, { x0: 96, y0: 520, x1: 900, y1: 570 });
    expect(brand).toBeGreaterThan(3000);
    expect(tagline).toBeGreaterThan(3000);
    expect(company).toBeGreaterThan(1000);
  });

  it('is the same PNG bytes every time', async () => {
    const [a, b] = await Promise.all([shareCardPng(site), shareCardPng(site)]);
    expect(Buffer.from(a).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(Buffer.compare(Buffer.from(a), Buffer.from(b))).toBe(0);
  });

  it('is kept in the build cache under what decides its pixels, and read back from there', async () => {
    const cache = mkdtempSync(path.join(tmpdir(), 'share-card-'));
    try {
      const drawn = await shareCardPng(site);
      expect(Buffer.compare(Buffer.from(await shareCardPng(site, cache)), Buffer.from(drawn))).toBe(0);
      const kept = readdirSync(path.join(cache, 'share-cards'));
      expect(kept).toHaveLength(1);
      // A second build reads the file it names, whatever it holds: planted bytes come back.
      writeFileSync(path.join(cache, 'share-cards', kept[0]), 'planted');
      expect(Buffer.from(await shareCardPng(site, cache)).toString()).toBe('planted');
      // Another tagline is another card: drawn, and kept beside the first.
      const other = { ...site, tagline: `${site.tagline} (new)` };
      const png = await shareCardPng(other, cache);
      expect(Buffer.compare(Buffer.from(png), Buffer.from(await shareCardPng(other)))).toBe(0);
      expect(Buffer.compare(Buffer.from(png), Buffer.from(drawn))).not.toBe(0);
      expect(readdirSync(path.join(cache, 'share-cards'))).toHaveLength(2);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
