import { describe, expect, test } from 'vitest';
import { encodePath, formatDate, squash } from '../../src/render/text.js';
import { serializeJsonLd } from '../../src/render/json-ld.js';

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
