/**
 * Reference extractor: the audit runs the faster scanner (src/audit/scan.ts); tests
 * check that both give the same facts. Extracts a page's facts in one walk over the DOM. cheerio/slim parses
 * with htmlparser2 (several times faster than parse5, and it keeps a
 * <title> in <body> where it was written, which is what we want to report);
 * we walk the node tree directly instead of running selectors.
 */
import { load } from 'cheerio/slim';
import type { ImageFact, LinkFact, PageFacts } from '../../src/audit/types.js';

interface DomNode {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

/** Elements whose text is not visible content. */
const INVISIBLE = new Set(['script', 'style', 'template', 'noscript', 'head']);
/** Page chrome excluded from the main content when the page has no <main>. */
const CHROME = new Set(['nav', 'header', 'footer', 'aside']);
/** Excluded from the main content always: shared forms and navigation inside <main> (breadcrumbs, pagination). */
const NOT_CONTENT = new Set(['nav', 'aside', 'form']);
const RESOURCE_SRC = new Set(['script', 'img', 'iframe', 'source', 'video', 'audio', 'embed', 'track', 'input']);
const NON_RESOURCE_LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev', 'author', 'help', 'license', 'search']);

import { collapse, emptyPageFacts, isShareImage, jsonLdFact } from '../../src/audit/scan.js';
import { srcsetUrls } from '../../src/core/html/srcset.js';

function textOf(node: DomNode, withAlt: boolean): string {
  const out: string[] = [];
  const walk = (n: DomNode): void => {
    if (n.type === 'text') out.push(n.data ?? '');
    else if (n.type === 'tag' || n.type === 'root') {
      if (withAlt && n.name === 'img' && n.attribs?.alt) out.push(' ' + n.attribs.alt + ' ');
      if (n.name && INVISIBLE.has(n.name) && n.name !== 'head') return;
      for (const c of n.children ?? []) walk(c);
    }
  };
  walk(node);
  return collapse(out.join(''));
}

export function extractPage(html: string, url: string, file: string): PageFacts {
  const $ = load(html);
  const root = $.root()[0] as unknown as DomNode;
  const hasMain = /<main[\s>]/i.test(html);
  const facts = emptyPageFacts(url, file);
  const visible: string[] = [];
  const main: string[] = [];

  // inMain: inside the main content region; inHead: inside <head>; inBody: visible.
  const walk = (node: DomNode, inHead: boolean, inBody: boolean, inMain: boolean): void => {
    if (node.type === 'text') {
      if (inBody) {
        const t = node.data ?? '';
        visible.push(t);
        if (inMain) main.push(t);
      }
      return;
    }
    if (node.type === 'script' || node.type === 'style' || node.type === 'tag') {
      const name = node.name ?? '';
      const a = node.attribs ?? {};
      if (a.id) facts.ids.add(a.id);
      switch (name) {
        case 'head':
          inHead = true;
          inBody = false;
          break;
        case 'body':
          inBody = true;
          inHead = false;
          facts.screen = a['data-screen'] ?? null;
          if (!hasMain) inMain = true;
          break;
        case 'main':
          inMain = true;
          break;
        case 'svg':
          // Inline icons: their <title> is not the page's, their text not content.
          return;
        case 'title':
          facts.titles.push({ text: textOf(node, false), inHead });
          return;
        case 'meta': {
          const metaName = (a.name ?? '').toLowerCase();
          const content = a.content ?? '';
          if (metaName === 'description') facts.descriptions.push(collapse(content));
          else if (metaName === 'keywords') facts.keywords.push(collapse(content));
          else if (metaName === 'robots' || metaName === 'googlebot') facts.robots.push(content.toLowerCase());
          else if (isShareImage(metaName, a.property)) facts.shareImages.push(content.trim());
          break;
        }
        case 'link': {
          const rels = (a.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
          if (rels.includes('canonical')) facts.canonicals.push({ href: (a.href ?? '').trim(), inHead });
          else if (a.href) {
            if (!rels.some((rel) => NON_RESOURCE_LINK_RELS.has(rel))) facts.resources.push(a.href.trim());
            if (!rels.includes('preconnect') && !rels.includes('dns-prefetch'))
              facts.refs.push({ url: a.href.trim(), what: `link rel=${rels.join(' ') || '(none)'}` });
          }
          break;
        }
        case 'a':
          if (a.name) facts.ids.add(a.name);
          if (a.href !== undefined) facts.links.push({ href: a.href.trim(), text: textOf(node, true), rel: (a.rel ?? '').toLowerCase() } satisfies LinkFact);
          break;
        case 'img': {
          const image: ImageFact = {
            src: a.src === undefined ? null : a.src.trim(),
            srcset: srcsetUrls(a.srcset),
            alt: a.alt === undefined ? null : a.alt,
            width: a.width ?? null,
            height: a.height ?? null,
          };
          facts.images.push(image);
          break;
        }
        case 'base':
          if (a.href !== undefined && facts.baseHref === null) facts.baseHref = a.href.trim();
          break;
        case 'script':
          if ((a.type ?? '').toLowerCase() === 'application/ld+json') {
            facts.jsonLd.push(jsonLdFact((node.children ?? []).map((c) => c.data ?? '').join('')));
          }
          break;
      }
      if (RESOURCE_SRC.has(name) && a.src) {
        facts.resources.push(a.src.trim());
        if (name !== 'img' && (name !== 'input' || (a.type ?? '').toLowerCase() === 'image')) facts.refs.push({ url: a.src.trim(), what: name });
      }
      if ((name === 'img' || name === 'source') && a.srcset) facts.resources.push(...srcsetUrls(a.srcset));
      if (name === 'source' && a.srcset) {
        // <picture><source srcset> alternatives belong to the picture's <img>, which follows; keep them on the next image.
        pendingSrcset.push(...srcsetUrls(a.srcset));
      }
      if (name === 'img' && pendingSrcset.length > 0) {
        facts.images[facts.images.length - 1].srcset.push(...pendingSrcset.splice(0));
      }
      if (/^h[1-6]$/.test(name)) facts.headings.push({ level: Number(name[1]), text: textOf(node, true) });
      if (INVISIBLE.has(name)) inBody = false;
      if (NOT_CONTENT.has(name) || (!hasMain && CHROME.has(name))) inMain = false;
    }
    for (const child of node.children ?? []) walk(child, inHead, inBody, inMain);
  };
  const pendingSrcset: string[] = [];
  walk(root, false, false, false);
  // Only the structured-data checks read the visible text: skip the cost on pages without JSON-LD.
  facts.visibleText = facts.jsonLd.length > 0 ? collapse(visible.join(' ')).toLowerCase() : '';
  facts.lorem = /\blorem\s+ipsum\b/i.test(facts.jsonLd.length > 0 ? facts.visibleText : visible.join(' '));
  facts.mainText = main.join(' '); // words() splits on any whitespace: no need to collapse
  return facts;
}
