/**
 * The one HTML tokenizer of the project: the audit's page scanner and the
 * build's link check walk pages with it. It reads markup as the pattern
 * `<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>` would, plus
 * comments, doctypes and processing instructions, so a '<' that starts no
 * tag, or a quote that never closes, stays text. It builds no DOM and slices
 * no strings: it hands positions to a TagHandler, which reads only what it
 * needs (attributes with nextAttribute, tag names with a TagTable).
 * Measured against htmlparser2's Parser on the shipped site it takes under
 * half the time, which is why the project keeps its own.
 */

const GT = 62;
const SLASH = 47;
const BANG = 33;
const QUESTION = 63;
const DQUOTE = 34;
const SQUOTE = 39;
const EQUALS = 61;
const DASH = 45;

/** The characters of JavaScript's `\s`. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return (
    c === 160 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff
  );
}

export const isAsciiLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;
/** [a-zA-Z0-9:-] */
const isTagNameChar = (c: number): boolean => isAsciiLetter(c) || (c >= 48 && c <= 58) || c === DASH;
/** [^\s"'>\/=] */
const isAttributeNameChar = (c: number): boolean => c !== DQUOTE && c !== SQUOTE && c !== GT && c !== SLASH && c !== EQUALS && !isSpace(c);

/** Whether html[from, to) is whitespace only. */
export function isWhitespace(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** The hash step for one character of a tag name; `| 32` lower-cases letters and keeps digits, ':' and '-'. */
const hashStep = (h: number, c: number): number => (Math.imul(h, 31) + (c | 32)) | 0;

/**
 * A fixed set of tag names, looked up by a hash of their lower-cased
 * characters (open addressing): the lookup needs no sliced string, which a
 * Map lookup did (slicing and hashing every tag name was a scanner's largest
 * single cost).
 */
export interface TagTable {
  readonly names: readonly string[];
  readonly slots: Int16Array;
}

const SLOT_MASK = 255;

/** A table of at most a hundred lower-case names; lookUpTag returns an index into `names`. */
export function tagTable(names: readonly string[]): TagTable {
  const slots = new Int16Array(SLOT_MASK + 1).fill(-1);
  names.forEach((name, index) => {
    let h = 0;
    for (let i = 0; i < name.length; i++) h = hashStep(h, name.charCodeAt(i));
    let slot = h & SLOT_MASK;
    while (slots[slot] !== -1) slot = (slot + 1) & SLOT_MASK;
    slots[slot] = index;
  });
  return { names, slots };
}

/** The index in table.names of the tag named html[start, end) (ASCII case-insensitive, with hash h), or -1. */
export function lookUpTag(table: TagTable, html: string, start: number, end: number, h: number): number {
  const { names, slots } = table;
  for (let slot = h & SLOT_MASK; slots[slot] !== -1; slot = (slot + 1) & SLOT_MASK) {
    const index = slots[slot];
    const name = names[index];
    if (name.length !== end - start) continue;
    let t = 0;
    // Tag-name characters: (c | 32) equals a lower-case letter, digit, ':' or '-' only for that character.
    while (t < name.length && (html.charCodeAt(start + t) | 32) === name.charCodeAt(t)) t++;
    if (t === name.length) return index;
  }
  return -1;
}

/** Whether html[start, end) is `name` (lower case), ASCII case-insensitive; for names of tags and attributes. */
export function nameIs(html: string, start: number, end: number, name: string): boolean {
  if (end - start !== name.length) return false;
  // Tag and attribute names hold no whitespace, so (c | 32) equals a lower-case letter, digit or '-' only for that character.
  for (let t = 0; t < name.length; t++) if ((html.charCodeAt(start + t) | 32) !== name.charCodeAt(t)) return false;
  return true;
}

/** Where `</name` (ASCII case-insensitive, name lower case) next starts at or after `from`, or -1: the end of a raw-text element. */
export function findEndTag(html: string, from: number, name: string): number {
  for (let k = html.indexOf('</', from); k !== -1; k = html.indexOf('</', k + 1)) {
    let t = 0;
    while (t < name.length && (html.charCodeAt(k + 2 + t) | 32) === name.charCodeAt(t)) t++;
    if (t === name.length) return k;
  }
  return -1;
}

/** The end of `<!…>` or `<?…>` at `lt`, or -1 when it is not one (no '>'): an unterminated comment runs to the end. */
function declarationEnd(html: string, lt: number, c1: number): number {
  if (c1 === BANG && html.charCodeAt(lt + 2) === DASH && html.charCodeAt(lt + 3) === DASH) {
    const close = html.indexOf('-->', lt + 4);
    return close === -1 ? html.length : close + 3;
  }
  const gt = html.indexOf('>', lt + 2);
  return gt === -1 ? -1 : gt + 1;
}

/** The '>' that ends the attribute run starting at `from`, skipping quoted values; -1 when a quote never closes or no '>' follows. */
function tagEnd(html: string, from: number): number {
  const length = html.length;
  let i = from;
  while (i < length) {
    const c = html.charCodeAt(i);
    if (c === GT) return i;
    if (c === DQUOTE || c === SQUOTE) {
      const close = html.indexOf(c === DQUOTE ? '"' : "'", i + 1);
      if (close === -1) return -1;
      i = close + 1;
    } else i++;
  }
  return -1;
}

/**
 * What a reader of HTML does with the tokens. Positions index the page
 * string; a tag's name is html[nameStart, nameEnd), hashed as lookUpTag wants,
 * and its attribute run html[nameEnd, gt).
 */
export interface TagHandler {
  /** Text between html[from, to) (not empty), entities not decoded. */
  text(from: number, to: number): void;
  /** A start tag; returns where tokenizing resumes (gt + 1, or past a raw-text element's content). */
  startTag(nameStart: number, nameEnd: number, hash: number, gt: number): number;
  endTag(nameStart: number, nameEnd: number, hash: number): void;
}

/**
 * Walks one page: text, start and end tags, in document order; comments,
 * doctypes and processing instructions are skipped. Returns where the
 * trailing text starts (the handler has not seen html[returned, length)).
 */
export function tokenize(html: string, handler: TagHandler): number {
  const length = html.length;
  let last = 0; // start of the text not yet handed over
  let pos = 0; // where to look for the next '<'
  while (pos < length) {
    const lt = html.indexOf('<', pos);
    if (lt === -1) break;
    pos = lt + 1;
    const c1 = html.charCodeAt(lt + 1);
    if (c1 === BANG || c1 === QUESTION) {
      const end = declarationEnd(html, lt, c1);
      if (end === -1) continue;
      if (lt > last) handler.text(last, lt);
      last = pos = end;
      continue;
    }
    const nameStart = c1 === SLASH ? lt + 2 : lt + 1;
    if (!isAsciiLetter(html.charCodeAt(nameStart))) continue;
    let h = hashStep(0, html.charCodeAt(nameStart));
    let nameEnd = nameStart + 1;
    for (let c = html.charCodeAt(nameEnd); nameEnd < length && isTagNameChar(c); c = html.charCodeAt(++nameEnd)) h = hashStep(h, c);
    const gt = tagEnd(html, nameEnd);
    if (gt === -1) continue; // this '<' starts no tag: it stays text
    if (lt > last) handler.text(last, lt);
    if (c1 === SLASH) {
      handler.endTag(nameStart, nameEnd, h);
      last = pos = gt + 1;
    } else last = pos = handler.startTag(nameStart, nameEnd, h, gt);
  }
  return last;
}

/**
 * One attribute's bounds, filled by nextAttribute: name html[b[0], b[1]),
 * value html[b[2], b[3]) (entities not decoded), b[2] = -1 for a name
 * without a value. Reused across calls: readers allocate nothing per attribute.
 */
export type AttributeBounds = Int32Array;
export const attributeBounds = (): AttributeBounds => new Int32Array(4);

/**
 * The next attribute at or after `i` in the run html[i, end): names are runs
 * of [^\s"'>\/=], a value follows `=` (quoted when its closing quote is inside
 * the run, else up to whitespace or '>'). Fills `b` and returns where the
 * next search starts, or -1 when the run has no more attributes.
 */
export function nextAttribute(html: string, i: number, end: number, b: AttributeBounds): number {
  while (i < end && !isAttributeNameChar(html.charCodeAt(i))) i++;
  if (i >= end) return -1;
  const nameStart = i;
  while (i < end && isAttributeNameChar(html.charCodeAt(i))) i++;
  b[0] = nameStart;
  b[1] = i;
  b[2] = -1;
  b[3] = -1;
  let j = i;
  while (j < end && isSpace(html.charCodeAt(j))) j++;
  if (j < end && html.charCodeAt(j) === EQUALS) {
    j++;
    while (j < end && isSpace(html.charCodeAt(j))) j++;
    if (j < end) {
      const q = html.charCodeAt(j);
      if (q === DQUOTE || q === SQUOTE) {
        const close = html.indexOf(q === DQUOTE ? '"' : "'", j + 1);
        if (close !== -1 && close < end) {
          b[2] = j + 1;
          b[3] = close;
          return close + 1;
        }
      }
      let k = j;
      while (k < end && html.charCodeAt(k) !== GT && !isSpace(html.charCodeAt(k))) k++;
      if (k > j) {
        b[2] = j;
        b[3] = k;
        return k;
      }
    }
  }
  return i;
}

/** The raw value of the first attribute named `name` (lower case) in the run html[start, end): '' without a value, undefined when absent. */
export function rawAttribute(html: string, start: number, end: number, name: string, b: AttributeBounds = attributeBounds()): string | undefined {
  for (let i = nextAttribute(html, start, end, b); i !== -1; i = nextAttribute(html, i, end, b)) {
    if (nameIs(html, b[0], b[1], name)) return b[2] === -1 ? '' : html.slice(b[2], b[3]);
  }
  return undefined;
}

/** Whether the tag whose attribute run is html[attrStart, gt) closes itself (`/>`). */
export const selfClosing = (html: string, attrStart: number, gt: number): boolean => gt > attrStart && html.charCodeAt(gt - 1) === SLASH;
