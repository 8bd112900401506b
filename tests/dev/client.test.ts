/** The dev-only markup: the script tag added to a page, and the escaped error pages. */
import { describe, expect, it } from 'vitest';
import { errorPage, injectDevScript, renderFailurePage } from '../../src/dev/client.js';

const HOSTILE = '<img src=x onerror="alert(1)">&amp;';

describe('dev markup', () => {
  it('adds the dev script once, before the last </body>, with the fingerprint as data', () => {
    const html = '<!doctype html><html><body><p>a</p></body></html>';
    expect(injectDevScript(html, 'abc_-1')).toBe(
      '<!doctype html><html><body><p>a</p><script src="/__site/dev.js" data-hash="abc_-1" defer></script></body></html>',
    );
    expect(injectDevScript('<p>no body', 'h')).toBe('<p>no body<script src="/__site/dev.js" data-hash="h" defer></script>');
    expect(injectDevScript(html, '"><x>')).toContain('data-hash="&quot;&gt;&lt;x&gt;"');
  });

  it('escapes every part of a diagnostic in the error page', () => {
    const page = errorPage([
      { code: 'load/schema', severity: 'error', file: `data/${HOSTILE}.json`, pointer: `/${HOSTILE}`, line: 3, column: 4, message: HOSTILE },
    ]);
    expect(page).not.toContain('<img');
    expect(page.match(/&lt;img src=x onerror=&quot;alert\(1\)&quot;&gt;&amp;amp;/g)).toHaveLength(3);
    expect(page).toContain(':3:4');
    expect(page).toContain('The catalogue has 1 error<');
  });

  it('escapes the error of a template that threw', () => {
    const page = renderFailurePage(`/x${HOSTILE}`, new Error(HOSTILE));
    expect(page).not.toContain('<img');
    expect(page).toContain('&lt;img src=x');
  });
});
