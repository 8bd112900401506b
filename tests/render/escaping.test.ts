import { describe, expect, test, vi } from 'vitest';
import { serializeJsonLd } from '../../src/model/json-ld.js';
import { safeHref } from '../../src/model/text.js';
import { jsonLdOf, renderPath } from './helpers.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));

const ATTACK = '</script><script>alert(1)</script>';

describe('serializeJsonLd', () => {
  test('escapes every character that could end the script or a line, and stays the same JSON', () => {
    const data = { name: `${ATTACK} <!-- & \u2028\u2029 >` };
    const out = serializeJsonLd(data);
    expect(out).not.toMatch(/[<>&\u2028\u2029]/);
    expect(out).toContain('\\u003c/script\\u003e');
    expect(out).toContain('\\u0026');
    expect(out).toContain('\\u2028');
    expect(JSON.parse(out)).toEqual(data);
  });
});

describe('content cannot inject script', () => {
  test('a product name that closes the script tag comes out inert', () => {
    const { html, $ } = renderPath('/monomer/bulk-curcumin', { productName: ATTACK });
    expect(html).not.toContain('<script>alert(1)');
    expect(html.match(/<script/g)?.length).toBe($('script').length);
    // Only our own scripts: the bundle and JSON-LD.
    const kinds = $('script')
      .toArray()
      .map((el) => $(el).attr('type'));
    expect(new Set(kinds)).toEqual(new Set(['module', 'application/ld+json']));
    const product = jsonLdOf($).find((d) => d['@type'] === 'Product');
    expect(product?.name).toBe(ATTACK);
    expect($('h1').text()).toBe(ATTACK);
    expect($('title').text()).toBe('Bulk Curcumin Powder - Herbline');
  });

  test('javascript: links in content render as plain text', () => {
    const { $ } = renderPath('/monomer/bulk-curcumin', { productHref: 'javascript:alert(1)' });
    expect($('a[href^="javascript"]').length).toBe(0);
    expect($('.prose p').first().text()).toBe('Click me');
  });

  test('a safe link in content stays a link', () => {
    const { $ } = renderPath('/monomer/bulk-curcumin', { productHref: 'https://example.org/coa.pdf' });
    expect($('.prose a[href="https://example.org/coa.pdf"]').text()).toBe('Click me');
  });

  test('a banner linking to javascript: loses its link but keeps its heading', () => {
    const { $ } = renderPath('/');
    expect($('a[href^="javascript"]').length).toBe(0);
    expect($('.banner-heading').eq(1).text()).toBe('Free samples');
  });
});

describe('safeHref', () => {
  test.each([
    ['https://example.com/a', true],
    ['http://example.com', true],
    ['mailto:sales@example.com', true],
    ['tel:+8629123', true],
    ['/monomer/bulk-curcumin', true],
    ['relative/path', true],
    ['#inquire', true],
    ['?type=quote', true],
    ['javascript:alert(1)', false],
    ['JavaScript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    [' \u0001javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['vbscript:msgbox', false],
    ['\\\\evil.com', false],
    ['//evil.com', false],
    ['/\t/evil.com', false],
    ['&#106;avascript:alert(1)', false],
    ['https://exa mple.com', false],
    ['', false],
  ])('%j safe=%s', (href, safe) => {
    expect(safeHref(href) !== null).toBe(safe);
  });
});
