import { describe, expect, test } from 'vitest';
import { squash } from '../../src/core/search-text.js';
import { encodePath, formatDate, trimAtWord, trimToSentences } from '../../src/model/text.js';
import { serializeJsonLd } from '../../src/model/json-ld.js';

// Each helper has a fast path for the common case; these pin it to the plain definition.
const SAMPLES = [
  '',
  ' ',
  'plain text',
  ' leading',
  'trailing ',
  'two  spaces',
  'tab\there',
  'line\nbreak',
  'crlf\r\nend',
  'nbsp\u00a0inside',
  '\ufeffbom at start',
  'ideographic\u3000space',
  'line\u2028separator',
  '\u00a0',
  'a \t b',
  'Xi’an – “quoted”',
];

describe('squash', () => {
  test.each(SAMPLES.map((s) => [JSON.stringify(s), s]))('%s is squashed as /\\s+/ → " " then trim()', (_, s) => {
    expect(squash(s)).toBe(s.replace(/\s+/g, ' ').trim());
  });
});

describe('encodePath', () => {
  test.each([['/knowledge/what-is-curcumin'], ['/a b/ü?x#y'], ['/already%20encoded'], ["/sub-delims!$&'()*+,;=:@"], ['/"<>`{}|\\^']])('%s', (path) => {
    expect(encodePath(path)).toBe(path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (c) => encodeURIComponent(c)));
  });
});

describe('formatDate', () => {
  test('the same text on every call, from the cache too', () => {
    expect(formatDate('2024-03-05')).toBe('5 March 2024');
    expect(formatDate('2024-03-05')).toBe('5 March 2024');
    expect(formatDate('2021-12-31')).toBe('31 December 2021');
  });
});

describe('serializeJsonLd', () => {
  test('plain JSON when nothing needs escaping, escaped JSON otherwise', () => {
    expect(serializeJsonLd({ a: 'b', n: 1 })).toBe('{"a":"b","n":1}');
    expect(serializeJsonLd({ a: '<&>' })).toBe('{"a":"\\u003c\\u0026\\u003e"}');
  });
});

describe('trimToSentences (descriptions made from the content)', () => {
  const long = (tail: string) => `Licorice Root Extract, 20% Glycyrrhizic Acid (HPLC). Licorice root is about fifty times sweeter than sugar${tail}`;

  test('text that fits is only squashed', () => {
    expect(trimToSentences('  Short  enough. ')).toBe('Short enough.');
  });

  test('keeps the whole sentences that fit, or the clauses up to a semicolon, ending with a full stop', () => {
    expect(trimToSentences(long('. Its extract is used in confectionery, tobacco and liquorice-flavoured drinks around the world.'))).toBe(long('.'));
    expect(trimToSentences(long('; its extract is used in confectionery, tobacco and liquorice-flavoured drinks around the world.'))).toBe(long('.'));
  });

  test('a full stop of an abbreviation or a latin author is not the end of a sentence', () => {
    for (const abbreviation of ['Curcuma longa L.', 'Curcuminoids 95% min.', 'Malpighia emarginata DC.']) {
      const text = `Bulk curcumin powder from our GMP factory, made from the turmeric rhizome of ${abbreviation} Grown in India and dried in the sun before extraction.`;
      expect(text.indexOf(abbreviation) + abbreviation.length).toBeGreaterThan(70); // where a sentence end would be taken
      // The only full stop that fits is the abbreviation's: the text is cut at a word, with an ellipsis.
      expect(trimToSentences(text, 120)).toBe(trimAtWord(text, 120));
      expect(trimToSentences(text, 120)).toMatch(/…$/);
    }
  });

  test('sentences shorter than the minimum are not a description: cut at a word instead', () => {
    const text = `Pine Bark Extract. ${'Pine bark is, with grape seed, the main source of procyanidin extracts studied for circulation and skin elasticity '.repeat(2)}`;
    expect(trimToSentences(text)).toBe(trimAtWord(text));
    expect(trimToSentences(text).length).toBeLessThanOrEqual(155);
  });
});
