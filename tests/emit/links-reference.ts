/**
 * Link extraction through cheerio's DOM: the reference the build's tag
 * scanner (links.ts) is tested against. Kept out of links.ts so that the
 * build's threads never load cheerio.
 */
import { load } from 'cheerio/slim';
import { internalPath, isReferenceMeta, REFERENCES, type PageLinks } from '../../src/emit/links/scan.js';
import { srcsetUrls } from '../../src/core/html/srcset.js';

const SELECTOR = REFERENCES.map(([s]) => s).join(',');

/** Every internal reference in one page, found through the DOM. */
export function extractLinksWithCheerio(html: string, pagePath: string, origin: string): PageLinks {
  const $ = load(html);
  const internal = new Set<string>();
  const unsafe = new Set<string>();
  $(SELECTOR).each((_, el) => {
    const attribs = (el as { attribs: Record<string, string> }).attribs;
    for (const [, attr] of REFERENCES) {
      const value = attribs[attr];
      if (value === undefined) continue;
      if (attr === 'content' && !isReferenceMeta(attribs)) continue;
      const refs = attr === 'srcset' ? srcsetUrls(value) : [value];
      for (const ref of refs) {
        const r = internalPath(ref, pagePath, origin);
        if (r === null) continue;
        if (typeof r === 'string') internal.add(r);
        else unsafe.add(r.unsafe);
      }
    }
  });
  return { internal: [...internal], unsafe: [...unsafe] };
}
