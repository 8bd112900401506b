import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/core/diagnostics.js';
import { painter } from '../../src/core/paint.js';
import { resolveRoutes } from '../../src/check/index.js';
import { applyStrict, countCatalogue, formatAnnotations, formatJson, formatText, sizesOf } from '../../src/check/report.js';
import { loadCatalogue } from '../../src/load/index.js';
import { BASE_DATA } from './fixture.js';

const warning: Diagnostic = {
  code: 'check/empty-meta',
  severity: 'warning',
  file: 'data/routes.json',
  pointer: '/12/meta',
  line: 160,
  column: 5,
  message: 'Route /x has an empty meta title.',
};
const error: Diagnostic = {
  code: 'load/schema',
  severity: 'error',
  file: 'data/products/a,b.json',
  pointer: '/moq',
  line: 1,
  column: 1,
  message: 'moq: 100% missing,\nreally.',
};

describe('report', () => {
  it('--strict turns warnings into errors and leaves the input alone', () => {
    const input = [warning, error];
    expect(applyStrict(input, true).map((d) => d.severity)).toEqual(['error', 'error']);
    expect(applyStrict(input, false).map((d) => d.severity)).toEqual(['warning', 'error']);
    expect(warning.severity).toBe('warning');
  });

  it('counts routes per screen kind and content per kind', async () => {
    const { catalogue } = await loadCatalogue(BASE_DATA);
    const counts = countCatalogue(sizesOf(catalogue!), resolveRoutes(catalogue!), [warning, error]);
    expect(counts.routes).toEqual({
      about: 1,
      article: 3,
      category: 6,
      contact: 1,
      home: 1,
      knowledge: 3,
      news: 2,
      'news-detail': 1,
      product: 4,
      products: 3,
      search: 1,
      'search-not-found': 1,
      thanks: 1,
    });
    expect(counts.totals).toEqual({ routes: 28, declarations: 28, categories: 4, products: 4, articles: 3, news: 1, pages: 8, images: 0 });
    expect(counts.diagnostics).toEqual({ error: 1, warning: 1, info: 0 });
    expect(counts.codes).toEqual({ 'check/empty-meta': 1, 'load/schema': 1 });
  });

  it('text: errors first as file:line:column  severity  code  message, then counts and a verdict', () => {
    const counts = countCatalogue(null, [], [warning, error]);
    const text = formatText([warning, error], counts, painter(false));
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('data/products/a,b.json:1:1  error  load/schema  moq: 100% missing,\\u000areally.');
    expect(lines).toContain('data/routes.json:160:5  warning  check/empty-meta  Route /x has an empty meta title.');
    expect(lines.at(-2)).toBe('By code: check/empty-meta 1, load/schema 1');
    expect(lines.at(-1)).toBe('✖ The catalogue has problems: 1 error, 1 warning.');
    expect(
      formatText([], countCatalogue(null, [], []), painter(false))
        .trimEnd()
        .split('\n')
        .at(-1),
    ).toBe('✔ The catalogue is consistent: 0 errors, 0 warnings.');
  });

  it('colours only when asked', () => {
    const counts = countCatalogue(null, [], [error]);
    expect(formatText([error], counts, painter(false))).not.toContain('\u001b[');
    expect(formatText([error], counts, painter(true))).toContain('\u001b[31merror\u001b[39m');
  });

  it('json: one document with every field', () => {
    const counts = countCatalogue(null, [], [warning]);
    const doc = JSON.parse(formatJson([{ ...warning, line: undefined, column: undefined }], counts));
    expect(doc).toEqual({
      diagnostics: [
        {
          code: 'check/empty-meta',
          severity: 'warning',
          file: 'data/routes.json',
          pointer: '/12/meta',
          line: null,
          column: null,
          message: 'Route /x has an empty meta title.',
        },
      ],
      counts,
    });
  });

  it('annotations: GitHub workflow commands with escaped properties and data', () => {
    expect(formatAnnotations([error, warning])).toBe(
      '::error file=data/products/a%2Cb.json,line=1,col=1,title=load/schema::moq: 100%25 missing,%0Areally.\n' +
        '::warning file=data/routes.json,line=160,col=5,title=check/empty-meta::Route /x has an empty meta title.\n',
    );
  });
});
