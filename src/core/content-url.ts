/**
 * How a URL written in content (a link's href, a banner's link, an image's
 * src) is judged, once for the check and the renderer alike: the check
 * refuses exactly the URLs the renderer would not make a link of, so nothing
 * that passes the check is silently dropped from a page.
 *
 * A URL is judged as a browser reads it (the WHATWG URL standard): C0
 * control characters and spaces at either end are stripped and tabs and line
 * breaks anywhere are removed before the scheme is read, case-insensitively,
 * so "java\tscript:" and "\u0001javascript:" are javascript: URLs. Content
 * is plain text, never HTML (React escapes every "&"), so "&#106;avascript:"
 * reaches the browser as those characters; it is refused all the same, since
 * it can only be a mistake or a disguise.
 */

/** Schemes content may link to; anything else (javascript:, data:, vbscript:, file:) is refused. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

export type ContentUrl =
  /**
   * `url` is the href as written without white space or control characters at either end (what the page carries);
   * `scheme` lower-case, absent for a path or other reference without one.
   */
  | { ok: true; url: string; scheme?: string }
  /**
   * `problem`: 'unsafe' for a scheme other than the safe ones, a link off the site without one ("//host"), or a
   * URL written so that it could read otherwise (an HTML character reference, a backslash, a colon that looks
   * like a scheme's);
   * 'invalid' for one no browser can follow. `why` completes a sentence that starts with the URL.
   */
  | { ok: false; problem: 'unsafe' | 'invalid'; why: string };

/** A scheme as the URL parser reads one: an ASCII letter, then letters, digits, "+", "-", "." up to ":". */
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
/** A path on this site with nothing to look at twice: the common case, judged without parsing. */
// eslint-disable-next-line no-control-regex
const PLAIN_SITE_PATH = /^\/(?![/\\])[^\u0000-\u0020\u007f-\u009f\\&]*$/;
/** A character reference as browsers decode one in an attribute: numeric ones even without ";", named ones with it. */
const CHAR_REF = /&#(?:[0-9]+|x[0-9a-f]+);?|&[a-z][a-z0-9]*;/i;
/** Where a reference without a scheme is resolved to see whether it leaves the site. */
const SITE_BASE = new URL('https://site.invalid/');

/** The text a browser's URL parser starts from: C0 controls and spaces at either end stripped, tabs and line breaks removed. */
export function browserReading(href: string): string {
  // eslint-disable-next-line no-control-regex
  return href.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
}

export function judgeContentUrl(href: string): ContentUrl {
  // What the page carries, and so what is judged: white space and C0 controls at either end go (browsers drop the latter anyway).
  // eslint-disable-next-line no-control-regex
  const url = href.replace(/^[\s\u0000-\u0020]+|[\s\u0000-\u0020]+$/g, '');
  if (url === '') return { ok: false, problem: 'invalid', why: 'is empty' };
  if (PLAIN_SITE_PATH.test(url)) return { ok: true, url };
  const read = browserReading(url);
  const scheme = SCHEME.exec(read)?.[1].toLowerCase();
  if (scheme !== undefined && !SAFE_SCHEMES.has(scheme)) {
    const hidden =
      href
        .trim()
        .slice(0, scheme.length + 1)
        .toLowerCase() !== `${scheme}:`;
    return {
      ok: false,
      problem: 'unsafe',
      why: `uses the scheme "${scheme}:"${hidden ? ', hidden by characters that browsers remove before reading it' : ''}`,
    };
  }
  const ref = CHAR_REF.exec(url);
  if (ref) {
    const asHtml = SCHEME.exec(browserReading(decodeCharRefs(url)))?.[1].toLowerCase();
    const disguise = asHtml !== undefined && !SAFE_SCHEMES.has(asHtml) ? ` (read as HTML it would be a ${asHtml}: URL)` : '';
    return {
      ok: false,
      problem: 'unsafe',
      why: `has the HTML character reference "${ref[0]}"${disguise}: content is plain text, so the page would carry it as it is; write the character itself`,
    };
  }
  if (url.includes('\\')) return { ok: false, problem: 'unsafe', why: 'has a backslash, which browsers read as "/"; write "/"' };
  if (scheme !== undefined) {
    return URL.canParse(read)
      ? { ok: true, url, scheme }
      : { ok: false, problem: 'invalid', why: 'is not a URL browsers can follow (look at its host name and port)' };
  }
  // Not a scheme to the URL parser ("1x:", "java\u0001script:", "java\u200bscript:"), but some crawlers and older parsers would read one.
  // Control characters elsewhere are percent-encoded by browsers like any other character a URL may not carry.
  if (read.split(/[/?#]/, 1)[0].includes(':')) {
    return {
      ok: false,
      problem: 'unsafe',
      why: 'has a ":" before its first "/", "?" or "#" without a scheme such as https: in front, so it could be read as one',
    };
  }
  let resolved: URL;
  try {
    resolved = new URL(read, SITE_BASE);
  } catch {
    return { ok: false, problem: 'invalid', why: 'is not a URL browsers can follow' };
  }
  if (resolved.host !== SITE_BASE.host)
    return { ok: false, problem: 'unsafe', why: `leads to another site (${resolved.host}) without a scheme; write its https: URL` };
  return { ok: true, url };
}

/** The named references worth decoding to explain a disguise; others stay as they are. */
const NAMED: Record<string, string> = {
  amp: '&',
  colon: ':',
  sol: '/',
  tab: '\t',
  newline: '\n',
  lpar: '(',
  rpar: ')',
  period: '.',
  num: '#',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
};

/** Decodes the character references of `text` as far as it takes to show what an HTML reading would make of it. */
function decodeCharRefs(text: string): string {
  return text.replace(
    /&#(?:([0-9]+)|x([0-9a-f]+));?|&([a-z][a-z0-9]*);/gi,
    (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (name !== undefined) return NAMED[name.toLowerCase()] ?? whole;
      const code = dec !== undefined ? Number(dec) : parseInt(hex!, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    },
  );
}
