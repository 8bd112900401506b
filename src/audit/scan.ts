/**
 * The audit's page facts, read in one pass of the project's HTML tokenizer
 * (core/html/tokenize.ts) without a DOM: raw-text elements (script, style,
 * title, textarea) are jumped over, and nesting is tracked only for the
 * elements whose regions matter (head, body, main, nav, header, footer,
 * aside, form, svg, a, headings). Attributes are read only for the few names
 * the facts use, straight from the page string. The cheerio walk in
 * tests/audit/extract.ts is the reference the tests compare it with
 * (docs/PERFORMANCE.md, "Audit").
 */
import { decodeEntities } from '../core/html/entities.js';
import { srcsetUrls } from '../core/html/srcset.js';
import {
  attributeBounds,
  findEndTag,
  isSpace,
  isWhitespace,
  lookUpTag,
  nextAttribute,
  selfClosing,
  tagTable,
  tokenize,
  type TagHandler,
} from '../core/html/tokenize.js';
import type { ImageFact, JsonLdFact, PageFacts } from './types.js';

const EQUALS = 61;

/**
 * Runs of whitespace that are not already a single space: replacing every
 * run (/\s+/g) allocated a match per word gap of a whole page's text.
 */
const UNCOLLAPSED = /\s{2,}|[^\S ]\s*/g;

/** Whitespace runs to one space, trimmed. Most link and heading texts already are: checking costs less than the replace. */
export function collapse(s: string): string {
  let spaceBefore = true; // a leading space needs the replace too
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) {
      if (spaceBefore) return s.replace(UNCOLLAPSED, ' ').trim();
      spaceBefore = true;
    } else if (isSpace(c)) return s.replace(UNCOLLAPSED, ' ').trim();
    else spaceBefore = false;
  }
  return spaceBefore && s.length > 0 ? s.replace(UNCOLLAPSED, ' ').trim() : s;
}

/**
 * The attributes the facts use, on one fixed shape: a plain object keyed by
 * whatever attribute names a page has (class, aria-*, data-*…) made every
 * lookup megamorphic. Absent attributes stay undefined; a name without a
 * value is ''.
 */
interface Attributes {
  id: string | undefined;
  name: string | undefined;
  href: string | undefined;
  rel: string | undefined;
  src: string | undefined;
  srcset: string | undefined;
  alt: string | undefined;
  width: string | undefined;
  height: string | undefined;
  content: string | undefined;
  type: string | undefined;
  screen: string | undefined;
  property: string | undefined;
}

const noAttributes = (): Attributes => ({
  id: undefined,
  name: undefined,
  href: undefined,
  rel: undefined,
  src: undefined,
  srcset: undefined,
  alt: undefined,
  width: undefined,
  height: undefined,
  content: undefined,
  type: undefined,
  screen: undefined,
  property: undefined,
});
// Not frozen: a frozen object has another hidden class, which made every attribute read polymorphic.
const NO_ATTRIBUTES: Readonly<Attributes> = noAttributes();

/** The attribute names the facts use, in slot order (see setAttribute). */
const USED_ATTRIBUTES = ['id', 'name', 'href', 'rel', 'src', 'srcset', 'alt', 'width', 'height', 'content', 'type', 'data-screen', 'property'];
/** Slots of the used names by name length, so most names are ruled out by their length and first character. */
const SLOTS_BY_LENGTH: number[][] = [];
USED_ATTRIBUTES.forEach((name, slot) => (SLOTS_BY_LENGTH[name.length] ??= []).push(slot));

/**
 * The slot of the attribute named html[start, end) (ASCII case-insensitive),
 * or -1 when the facts do not use it. Compared in place: slicing and
 * lower-casing every name (class, aria-*, data-*) cost more than the rest.
 */
function attributeSlot(html: string, start: number, end: number): number {
  const candidates = SLOTS_BY_LENGTH[end - start];
  if (candidates === undefined) return -1;
  for (const slot of candidates) {
    const name = USED_ATTRIBUTES[slot];
    let t = 0;
    // Attribute-name characters exclude whitespace, so (c | 32) equals a lower-case letter or '-' only for that character.
    while (t < name.length && (html.charCodeAt(start + t) | 32) === name.charCodeAt(t)) t++;
    if (t === name.length) return slot;
  }
  return -1;
}

/** The value of a slot's attribute, undefined while unset. */
function attributeAt(attrs: Attributes, slot: number): string | undefined {
  switch (slot) {
    case 0:
      return attrs.id;
    case 1:
      return attrs.name;
    case 2:
      return attrs.href;
    case 3:
      return attrs.rel;
    case 4:
      return attrs.src;
    case 5:
      return attrs.srcset;
    case 6:
      return attrs.alt;
    case 7:
      return attrs.width;
    case 8:
      return attrs.height;
    case 9:
      return attrs.content;
    case 10:
      return attrs.type;
    case 11:
      return attrs.screen;
    default:
      return attrs.property;
  }
}

/** HTML keeps the first of duplicate attributes; values are sliced and decoded only for the attributes kept. */
function setAttribute(attrs: Attributes, slot: number, html: string, valueStart: number, valueEnd: number): void {
  if (attributeAt(attrs, slot) !== undefined) return;
  const value = valueStart === -1 ? '' : decodeEntities(html.slice(valueStart, valueEnd));
  switch (slot) {
    case 0:
      attrs.id = value;
      break;
    case 1:
      attrs.name = value;
      break;
    case 2:
      attrs.href = value;
      break;
    case 3:
      attrs.rel = value;
      break;
    case 4:
      attrs.src = value;
      break;
    case 5:
      attrs.srcset = value;
      break;
    case 6:
      attrs.alt = value;
      break;
    case 7:
      attrs.width = value;
      break;
    case 8:
      attrs.height = value;
      break;
    case 9:
      attrs.content = value;
      break;
    case 10:
      attrs.type = value;
      break;
    case 11:
      attrs.screen = value;
      break;
    default:
      attrs.property = value;
  }
}

const bounds = attributeBounds();

/** The attributes the facts use in the run html[start, end). */
function parseAttributes(html: string, start: number, end: number): Attributes {
  const attrs = noAttributes();
  for (let i = nextAttribute(html, start, end, bounds); i !== -1; i = nextAttribute(html, i, end, bounds)) {
    const slot = attributeSlot(html, bounds[0], bounds[1]);
    if (slot !== -1) setAttribute(attrs, slot, html, bounds[2], bounds[3]);
  }
  return attrs;
}

/** Whether html[start, end) has `\sid\s*=` (ASCII case-insensitive): other elements are read only for their id. */
function mayHaveId(html: string, start: number, end: number): boolean {
  for (let i = start; i + 3 < end; i++) {
    if ((html.charCodeAt(i + 1) | 32) !== 105 || (html.charCodeAt(i + 2) | 32) !== 100 || !isSpace(html.charCodeAt(i))) continue;
    let j = i + 3;
    while (j < end && isSpace(html.charCodeAt(j))) j++;
    if (j < end && html.charCodeAt(j) === EQUALS) return true;
  }
  return false;
}

// What a tag name means to the scanner: flags in the low byte, an element id above.
const RAW_TEXT = 1; // script, style, title, textarea…: content up to the end tag is not markup
const INVISIBLE = 2; // noscript, template
const CHROME = 4; // nav, header, footer, aside (only matter without <main>)
const NOT_CONTENT = 8; // nav, aside, form
const RESOURCE_SRC = 16; // elements whose src is a subresource
const READ_ATTRIBUTES = 32; // elements whose attributes the facts use; others are read only for an id

const HEAD = 1 << 8;
const BODY = 2 << 8;
const MAIN = 3 << 8;
const SVG = 4 << 8;
const META = 5 << 8;
const LINK = 6 << 8;
const ANCHOR = 7 << 8;
const IMG = 8 << 8;
const SOURCE = 9 << 8;
const SCRIPT = 10 << 8;
const TITLE = 11 << 8;
const TEXTAREA = 12 << 8;
const HEADING = 13 << 8; // h1–h6: the level is the name's digit
const BASE = 14 << 8;
const ELEMENT = 0xff00;

const TAG_LIST: ReadonlyArray<[string, number]> = [
  ['head', HEAD],
  ['body', BODY | READ_ATTRIBUTES],
  ['main', MAIN],
  ['svg', SVG],
  ['meta', META | READ_ATTRIBUTES],
  ['link', LINK | READ_ATTRIBUTES],
  ['a', ANCHOR | READ_ATTRIBUTES],
  ['img', IMG | RESOURCE_SRC | READ_ATTRIBUTES],
  ['source', SOURCE | RESOURCE_SRC | READ_ATTRIBUTES],
  ['script', SCRIPT | RAW_TEXT | RESOURCE_SRC | READ_ATTRIBUTES],
  ['title', TITLE | RAW_TEXT | READ_ATTRIBUTES],
  ['textarea', TEXTAREA | RAW_TEXT | READ_ATTRIBUTES],
  ['style', RAW_TEXT | READ_ATTRIBUTES],
  ['base', BASE | READ_ATTRIBUTES],
  ['xmp', RAW_TEXT],
  ['noembed', RAW_TEXT],
  ['noframes', RAW_TEXT],
  ['noscript', INVISIBLE],
  ['template', INVISIBLE],
  ['nav', CHROME | NOT_CONTENT],
  ['aside', CHROME | NOT_CONTENT],
  ['header', CHROME],
  ['footer', CHROME],
  ['form', NOT_CONTENT],
  ...['iframe', 'video', 'audio', 'embed', 'track', 'input'].map((n): [string, number] => [n, RESOURCE_SRC | READ_ATTRIBUTES]),
  ...[1, 2, 3, 4, 5, 6].map((n): [string, number] => [`h${n}`, HEADING]),
];

/** Tag names looked up without slicing them out of the page. */
const TAGS = tagTable(TAG_LIST.map(([name]) => name));
const NON_RESOURCE_LINK_RELS = new Set(['canonical', 'alternate', 'next', 'prev', 'author', 'help', 'license', 'search']);
/** <link> rels whose href names an origin to connect to, not a file. */
const ORIGIN_LINK_RELS = new Set(['preconnect', 'dns-prefetch']);

/**
 * The scanner's state while it walks one page. The walk is split into small
 * functions over this object rather than one large one: V8 recompiles a
 * large function each time a rarely taken branch deoptimises it, at a cost
 * an audit of a second notices (docs/PERFORMANCE.md, "Audit").
 */
interface Scan {
  html: string;
  facts: PageFacts;
  hasMain: boolean;
  visible: string[];
  main: string[];
  inHead: boolean;
  inBody: boolean;
  mainDepth: number;
  chromeDepth: number; // nav/header/footer/aside (only matter without <main>)
  notContentDepth: number; // nav/aside/form
  invisibleDepth: number; // noscript/template
  /** The open anchor and heading collect their text (with img alts). */
  anchor: { href: string | null; rel: string; text: string[] } | null;
  heading: { level: number; text: string[] } | null;
  /** <picture><source srcset> alternatives, kept for the <img> that follows. */
  pendingSrcset: string[];
}

function addText(s: Scan, raw: string): void {
  const text = decodeEntities(raw);
  // Link and heading texts are their own text content, wherever they sit.
  if (s.anchor) s.anchor.text.push(text);
  if (s.heading) s.heading.text.push(text);
  if (!s.inBody || s.invisibleDepth > 0) return;
  s.visible.push(text);
  if (s.notContentDepth === 0 && (s.hasMain ? s.mainDepth > 0 : s.chromeDepth === 0)) s.main.push(text);
}

/** Text between tags: whitespace only separates words, which joining with ' ' does anyway; inside links and headings it is kept. */
function flushText(s: Scan, from: number, to: number): void {
  if (to <= from) return;
  if (s.anchor || s.heading) addText(s, s.html.slice(from, to));
  else if (s.inBody && s.invisibleDepth === 0 && !isWhitespace(s.html, from, to)) addText(s, s.html.slice(from, to));
}

/** An <a> without href is a placeholder or a named anchor, not a link (HTML's definition of a hyperlink). */
function closeAnchor(s: Scan): void {
  const open = s.anchor!;
  if (open.href !== null) s.facts.links.push({ href: open.href, text: collapse(open.text.join('')), rel: open.rel });
  s.anchor = null;
}

function endTag(s: Scan, kind: number, level: number): void {
  const element = kind & ELEMENT;
  if (element === HEAD) s.inHead = false;
  else if (element === MAIN) {
    if (s.mainDepth > 0) s.mainDepth--;
  } else if (element === ANCHOR) {
    if (s.anchor) closeAnchor(s);
  } else if (element === HEADING && s.heading && level === s.heading.level) {
    s.facts.headings.push({ level: s.heading.level, text: collapse(s.heading.text.join('')) });
    s.heading = null;
  }
  if (kind & CHROME && s.chromeDepth > 0) s.chromeDepth--;
  if (kind & NOT_CONTENT && s.notContentDepth > 0) s.notContentDepth--;
  if (kind & INVISIBLE && s.invisibleDepth > 0) s.invisibleDepth--;
}

/** A raw-text element's content (script, style, title, textarea…); returns where scanning resumes. */
function rawText(s: Scan, element: number, name: string, a: Attributes, from: number): number {
  const html = s.html;
  const close = findEndTag(html, from, name);
  const raw = html.slice(from, close === -1 ? html.length : close);
  const gt = close === -1 ? -1 : html.indexOf('>', close);
  const facts = s.facts;
  if (element === TITLE) facts.titles.push({ text: collapse(decodeEntities(raw)), inHead: s.inHead });
  else if (element === SCRIPT && (a.type ?? '').toLowerCase() === 'application/ld+json') {
    facts.jsonLd.push(jsonLdFact(raw));
  } else if (element === TEXTAREA) addText(s, raw);
  if (element === SCRIPT && a.src) {
    facts.resources.push(a.src.trim());
    facts.refs.push({ url: a.src.trim(), what: 'script' });
  }
  return gt === -1 ? html.length : gt + 1;
}

/** Inline icons: their <title> is not the page's, their text not content. Returns the end of the matching </svg>. */
function skipSvg(html: string, from: number): number {
  const re = /<(\/?)svg[\s>/]/gi;
  re.lastIndex = from;
  let depth = 1;
  let m: RegExpExecArray | null;
  while (depth > 0 && (m = re.exec(html))) depth += m[1] ? -1 : 1;
  const close = depth === 0 ? html.indexOf('>', re.lastIndex - 1) : -1;
  return close === -1 ? html.length : close + 1;
}

const SHARE_IMAGE_PROPERTIES = new Set(['og:image', 'og:image:url', 'og:image:secure_url']);
const SHARE_IMAGE_NAMES = new Set(['twitter:image', 'twitter:image:src']);

/** A meta tag naming a social preview image: Open Graph by property, Twitter by name. */
export function isShareImage(metaName: string, property: string | undefined): boolean {
  return SHARE_IMAGE_NAMES.has(metaName) || SHARE_IMAGE_PROPERTIES.has((property ?? '').toLowerCase());
}

function meta(facts: PageFacts, a: Attributes): void {
  const metaName = (a.name ?? '').toLowerCase();
  const content = a.content ?? '';
  if (metaName === 'description') facts.descriptions.push(collapse(content));
  else if (metaName === 'keywords') facts.keywords.push(collapse(content));
  else if (metaName === 'robots' || metaName === 'googlebot') facts.robots.push(content.toLowerCase());
  else if (isShareImage(metaName, a.property)) facts.shareImages.push(content.trim());
}

function link(s: Scan, a: Attributes): void {
  const rels = (a.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (rels.includes('canonical')) s.facts.canonicals.push({ href: (a.href ?? '').trim(), inHead: s.inHead });
  else if (a.href) {
    if (!rels.some((rel) => NON_RESOURCE_LINK_RELS.has(rel))) s.facts.resources.push(a.href.trim());
    if (!rels.some((rel) => ORIGIN_LINK_RELS.has(rel))) s.facts.refs.push({ url: a.href.trim(), what: `link rel=${rels.join(' ') || '(none)'}` });
  }
}

function image(s: Scan, a: Attributes): void {
  const fact: ImageFact = {
    src: a.src === undefined ? null : a.src.trim(),
    srcset: [...srcsetUrls(a.srcset), ...s.pendingSrcset.splice(0)],
    alt: a.alt === undefined ? null : a.alt,
    width: a.width ?? null,
    height: a.height ?? null,
  };
  s.facts.images.push(fact);
  if (a.alt) {
    if (s.anchor) s.anchor.text.push(' ' + a.alt + ' ');
    if (s.heading) s.heading.text.push(' ' + a.alt + ' ');
  }
}

/** A start tag whose attribute run is html[attrStart, gt); returns where scanning resumes. */
function startTag(s: Scan, tag: number, kind: number, attrStart: number, gt: number): number {
  const html = s.html;
  const closesItself = selfClosing(html, attrStart, gt);
  const a = gt > attrStart && (kind & READ_ATTRIBUTES || mayHaveId(html, attrStart, gt)) ? parseAttributes(html, attrStart, gt) : NO_ATTRIBUTES;
  if (a.id) s.facts.ids.add(a.id);
  if (kind === 0) return gt + 1;
  const element = kind & ELEMENT;
  if (kind & RAW_TEXT) return rawText(s, element, TAG_LIST[tag][0], a, gt + 1);
  switch (element) {
    case HEAD:
      s.inHead = true;
      s.inBody = false;
      break;
    case BODY:
      s.inBody = true;
      s.inHead = false;
      s.facts.screen = a.screen ?? null;
      break;
    case MAIN:
      s.mainDepth++;
      break;
    case SVG:
      if (!closesItself) return skipSvg(html, gt + 1);
      break;
    case META:
      meta(s.facts, a);
      break;
    case LINK:
      link(s, a);
      break;
    case ANCHOR:
      if (a.name) s.facts.ids.add(a.name);
      if (s.anchor) closeAnchor(s);
      s.anchor = { href: a.href === undefined ? null : a.href.trim(), rel: (a.rel ?? '').toLowerCase(), text: [] };
      break;
    case IMG:
      image(s, a);
      break;
    case SOURCE:
      if (a.srcset) s.pendingSrcset.push(...srcsetUrls(a.srcset));
      break;
    case HEADING:
      s.heading = { level: TAG_LIST[tag][0].charCodeAt(1) - 48, text: [] };
      break;
    case BASE:
      if (a.href !== undefined && s.facts.baseHref === null) s.facts.baseHref = a.href.trim();
      break;
  }
  if (kind & RESOURCE_SRC && a.src) {
    s.facts.resources.push(a.src.trim());
    // The img's own src is checked as an image; <input src> only for type=image, the one that fetches it.
    if (element !== IMG && (TAG_LIST[tag][0] !== 'input' || (a.type ?? '').toLowerCase() === 'image'))
      s.facts.refs.push({ url: a.src.trim(), what: TAG_LIST[tag][0] });
  }
  if ((element === IMG || element === SOURCE) && a.srcset) s.facts.resources.push(...srcsetUrls(a.srcset));
  if (!closesItself) {
    if (kind & CHROME) s.chromeDepth++;
    if (kind & NOT_CONTENT) s.notContentDepth++;
    if (kind & INVISIBLE) s.invisibleDepth++;
  }
  return gt + 1;
}

/** The tokenizer's handler for one page: tags are looked up in TAG_LIST and handed to the scan's functions. */
class PageReader implements TagHandler {
  constructor(private readonly s: Scan) {}

  text(from: number, to: number): void {
    flushText(this.s, from, to);
  }

  startTag(nameStart: number, nameEnd: number, hash: number, gt: number): number {
    const tag = lookUpTag(TAGS, this.s.html, nameStart, nameEnd, hash);
    return startTag(this.s, tag, tag === -1 ? 0 : TAG_LIST[tag][1], nameEnd, gt);
  }

  endTag(nameStart: number, nameEnd: number, hash: number): void {
    const tag = lookUpTag(TAGS, this.s.html, nameStart, nameEnd, hash);
    if (tag !== -1) endTag(this.s, TAG_LIST[tag][1], this.s.html.charCodeAt(nameStart + 1) - 48);
  }
}

/** The facts of a page before any of it is read: what every reader of pages (this scanner, the tests' reference) starts from. */
export function emptyPageFacts(url: string, file: string): PageFacts {
  return {
    url,
    file,
    screen: null,
    titles: [],
    descriptions: [],
    keywords: [],
    robots: [],
    canonicals: [],
    headings: [],
    ids: new Set(),
    links: [],
    images: [],
    resources: [],
    refs: [],
    baseHref: null,
    shareImages: [],
    jsonLd: [],
    visibleText: '',
    lorem: false,
    mainText: '',
  };
}

export function scanPage(html: string, url: string, file: string): PageFacts {
  const facts = emptyPageFacts(url, file);
  const s: Scan = {
    html,
    facts,
    hasMain: /<main[\s>]/i.test(html),
    visible: [],
    main: [],
    inHead: false,
    inBody: false,
    mainDepth: 0,
    chromeDepth: 0,
    notContentDepth: 0,
    invisibleDepth: 0,
    anchor: null,
    heading: null,
    pendingSrcset: [],
  };
  const last = tokenize(html, new PageReader(s));
  if (last < html.length) addText(s, html.slice(last));
  if (s.anchor) closeAnchor(s);

  // A whole page's text always has runs to collapse: replace without testing first.
  facts.visibleText = facts.jsonLd.length > 0 ? s.visible.join(' ').replace(UNCOLLAPSED, ' ').trim().toLowerCase() : '';
  facts.lorem = /\blorem\s+ipsum\b/i.test(facts.jsonLd.length > 0 ? facts.visibleText : s.visible.join(' '));
  facts.mainText = s.main.join(' ');
  return facts;
}

/** A JSON-LD script's text as the rules see it: the parsed value, or why it does not parse. */
export function jsonLdFact(raw: string): JsonLdFact {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}
