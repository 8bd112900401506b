/**
 * Character references, as HTML pages write them. One decoder for every
 * reader of HTML in the project (the audit's page scanner, the build's link
 * check), so a reference means the same thing to both.
 */
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  middot: '·',
  bull: '•',
  laquo: '«',
  raquo: '»',
  deg: '°',
  times: '×',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
};

const isAsciiLetter = (c: number): boolean => (c | 32) >= 97 && (c | 32) <= 122;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHexDigit = (c: number): boolean => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 102);
const isAlphanumeric = (c: number): boolean => isDigit(c) || ((c | 32) >= 97 && (c | 32) <= 122);

/**
 * Decodes character references as the pattern
 * `&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));?` with
 * a replacer did: numeric ones to their code point (U+FFFD when out of
 * range), known names to their character, unknown names left as written.
 * Read by hand: a replacer call per reference was a visible cost on pages
 * whose text React escaped (&#x27;, &amp;).
 */
export function decodeEntities(s: string): string {
  let amp = s.indexOf('&');
  if (amp === -1) return s;
  let out = '';
  let last = 0;
  while (amp !== -1) {
    let i = amp + 1;
    let decoded: string | undefined;
    if (s.charCodeAt(i) === 35 /* # */) {
      let code = -1;
      let j = i + 1;
      if (isDigit(s.charCodeAt(j))) {
        while (j < s.length && j - (i + 1) < 7 && isDigit(s.charCodeAt(j))) j++;
        code = Number(s.slice(i + 1, j));
      } else if ((s.charCodeAt(j) | 32) === 120 /* x */ && isHexDigit(s.charCodeAt(j + 1))) {
        j++;
        while (j < s.length && j - (i + 2) < 6 && isHexDigit(s.charCodeAt(j))) j++;
        code = parseInt(s.slice(i + 2, j), 16);
      }
      if (code !== -1) {
        decoded = code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
        i = j;
      }
    } else if (isAsciiLetter(s.charCodeAt(i)) && isAlphanumeric(s.charCodeAt(i + 1))) {
      let j = i + 2;
      while (j < s.length && j - i < 32 && isAlphanumeric(s.charCodeAt(j))) j++;
      const name = s.slice(i, j);
      decoded = NAMED[name] ?? NAMED[name.toLowerCase()];
      i = j;
      // An unknown name stays as written, with its ';'.
      if (decoded === undefined) decoded = s.slice(amp, s.charCodeAt(i) === 59 ? i + 1 : i);
    }
    if (decoded === undefined) {
      amp = s.indexOf('&', amp + 1);
      continue;
    }
    if (s.charCodeAt(i) === 59 /* ; */) i++;
    out += s.slice(last, amp) + decoded;
    last = i;
    amp = s.indexOf('&', i);
  }
  return out + s.slice(last);
}
