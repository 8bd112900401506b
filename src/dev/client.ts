/**
 * The browser side of `site dev`, only ever in pages `site dev` serves (never
 * in `site build` output): one same-origin script, so the pages'
 * Content-Security-Policy ('self', no inline script) lets it run. It opens a
 * server-sent event stream naming its page and the fingerprint of the HTML it
 * shows; the server sends `reload` when that page's HTML changed and `errors`
 * (the check's errors, possibly none) whenever they change. Errors show in an
 * overlay built with DOM calls and textContent: content is untrusted.
 */
import { escapeHtml } from '../core/html/escape.js';
import type { Diagnostic } from '../core/diagnostics.js';

export const DEV_PREFIX = '/__site/';
export const DEV_SCRIPT_PATH = '/__site/dev.js';
export const DEV_EVENTS_PATH = '/__site/events';
export const OVERLAY_ID = 'site-dev-overlay';

/** The script a served page loads; its `data-hash` is the fingerprint of the page's HTML before this tag was added. */
export function injectDevScript(html: string, hash: string): string {
  const tag = `<script src="${DEV_SCRIPT_PATH}" data-hash="${escapeHtml(hash)}" defer></script>`;
  const at = html.lastIndexOf('</body>');
  return at < 0 ? html + tag : html.slice(0, at) + tag + html.slice(at);
}

/** What the overlay shows of a diagnostic (the event stream's `errors` payload). */
export type OverlayItem = Pick<Diagnostic, 'code' | 'file' | 'pointer' | 'line' | 'column' | 'message'>;

export const overlayItems = (errors: readonly Diagnostic[]): OverlayItem[] =>
  errors.map(({ code, file, pointer, line, column, message }) => ({ code, file, pointer, line, column, message }));

/** `data/x.json:3:5` — where an editor jumps to. */
export const whereOf = (d: Pick<Diagnostic, 'file' | 'line' | 'column'>): string => (d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`);

/**
 * The page shown when no catalogue has loaded without errors yet: the errors,
 * escaped, and the dev script, which reloads the page once they are fixed.
 */
export function errorPage(errors: readonly Diagnostic[]): string {
  const items = errors
    .map(
      (d) =>
        `<li><code>${escapeHtml(d.code)}</code> <strong>${escapeHtml(whereOf(d))}</strong>${d.pointer ? ` at <code>${escapeHtml(d.pointer)}</code>` : ''}<br>${escapeHtml(d.message)}</li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>site dev: the catalogue has errors</title></head><body><main><h1>The catalogue has ${errors.length} error${errors.length === 1 ? '' : 's'}</h1><ul>${items}</ul><p>Fix them and save: this page reloads by itself.</p></main></body></html>`;
}

/** A page whose template threw: the error, escaped (its message may quote content). */
export function renderFailurePage(requestPath: string, error: unknown): string {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>site dev: rendering failed</title></head><body><main><h1>Rendering ${escapeHtml(requestPath)} failed</h1><pre>${escapeHtml(text)}</pre><p>Fix it and save: this page reloads by itself.</p></main></body></html>`;
}

/** The script itself: plain ES2017, no imports, run as a classic deferred script (document.currentScript is set). */
export const DEV_CLIENT_JS = `(() => {
  'use strict';
  const script = document.currentScript;
  const hash = (script && script.dataset.hash) || '';
  const events = new EventSource('${DEV_EVENTS_PATH}?path=' + encodeURIComponent(location.pathname) + '&hash=' + encodeURIComponent(hash));
  const ID = '${OVERLAY_ID}';
  const el = (tag, style, text) => {
    const node = document.createElement(tag);
    Object.assign(node.style, style || {});
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const where = (d) => (d.line === undefined ? d.file : d.file + ':' + d.line + ':' + (d.column || 1));
  const show = (errors) => {
    const old = document.getElementById(ID);
    if (old) old.remove();
    if (errors.length === 0) return;
    const box = el('div', { position: 'fixed', inset: '0', zIndex: '2147483647', overflow: 'auto', background: 'rgba(20,20,24,0.92)', color: '#fafafa', font: '14px/1.5 ui-monospace, monospace', padding: '2rem' });
    box.id = ID;
    box.setAttribute('role', 'alert');
    box.appendChild(el('h2', { margin: '0 0 1rem', color: '#ff8a80', font: 'bold 18px/1.4 ui-monospace, monospace' }, 'site dev: the catalogue has ' + errors.length + ' error' + (errors.length === 1 ? '' : 's') + ' (the page shows the last good version)'));
    const list = el('ul', { listStyle: 'none', margin: '0', padding: '0' });
    for (const d of errors) {
      const item = el('li', { margin: '0 0 1rem', padding: '0.75rem', borderLeft: '4px solid #ff8a80', background: 'rgba(255,255,255,0.05)' });
      item.appendChild(el('div', { color: '#ffd180' }, d.code));
      item.appendChild(el('div', { fontWeight: 'bold' }, where(d) + (d.pointer ? '  ' + d.pointer : '')));
      item.appendChild(el('div', {}, d.message));
      list.appendChild(item);
    }
    box.appendChild(list);
    box.appendChild(el('p', { opacity: '0.7' }, 'Fix the file and save: this goes away by itself.'));
    document.body.appendChild(box);
  };
  // Says the page is listening (tests wait for it before editing).
  events.addEventListener('open', () => document.documentElement.setAttribute('data-site-dev', 'connected'));
  events.addEventListener('errors', (e) => show(JSON.parse(e.data)));
  events.addEventListener('reload', () => location.reload());
})();
`;
