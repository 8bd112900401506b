/**
 * The /search page: reads `q`, loads the engine chunk and the index, and
 * lists results as links with highlighted snippets. No results shows the
 * /search/404 suggestions the page already holds ([data-search-empty]).
 * Typing in the page's search box updates the results and the URL.
 */
// Importing the page's main module (already loaded by every page, so it runs
// once) lets the bundler keep the shared code inside main's file instead of a
// third shared chunk every page would have to fetch.
import './main.js';
import { loadChunk } from './chunk.js';
import { SEARCH } from './constants.js';
import { KIND_LABELS } from './search-options.js';
import type { Engine, Hit } from './search-engine.js';
import type { Segment } from './snippet.js';

function segmentsInto(parent: HTMLElement, segments: Segment[]): void {
  for (const s of segments) {
    if (s.mark) {
      const mark = document.createElement('mark');
      mark.textContent = s.text;
      parent.append(mark);
    } else parent.append(document.createTextNode(s.text));
  }
}

function resultItem(hit: Hit): HTMLLIElement {
  const li = document.createElement('li');
  li.className = 'search-result';
  li.dataset.kind = hit.kind;
  const kind = document.createElement('span');
  kind.className = 'search-result-kind';
  kind.textContent = KIND_LABELS[hit.kind];
  const link = document.createElement('a');
  link.href = hit.url;
  link.className = 'search-result-link';
  segmentsInto(link, hit.title);
  const snippet = document.createElement('p');
  snippet.className = 'search-result-snippet';
  segmentsInto(snippet, hit.snippet);
  li.append(kind, link, snippet);
  return li;
}

function render(container: HTMLElement, empty: HTMLElement | null, query: string, hits: Hit[]): void {
  const status = document.createElement('p');
  status.className = 'search-status';
  status.setAttribute('role', 'status');
  container.dataset.count = String(hits.length);
  if (query === '') {
    container.replaceChildren();
    if (empty) empty.hidden = true;
    return;
  }
  if (hits.length === 0) {
    status.textContent = `No results for “${query}”.`;
    container.replaceChildren(status);
    if (empty) empty.hidden = false;
    return;
  }
  status.textContent = `${hits.length}${hits.length === SEARCH.maxResults ? '+' : ''} result${hits.length === 1 ? '' : 's'} for “${query}”`;
  const list = document.createElement('ol');
  list.className = 'search-results-list';
  list.append(...hits.map(resultItem));
  container.replaceChildren(status, list);
  if (empty) empty.hidden = true;
}

async function start(): Promise<void> {
  const container = document.querySelector<HTMLElement>('[data-search-results]');
  if (!container) return;
  const empty = document.querySelector<HTMLElement>('[data-search-empty]');
  const inputs = Array.from(document.querySelectorAll<HTMLInputElement>('form[role="search"] input[name="q"]'));
  let query = (new URLSearchParams(location.search).get('q') ?? '').trim();
  for (const input of inputs) input.value = query;

  container.setAttribute('aria-busy', 'true');
  if (query) container.textContent = 'Searching…';
  let engine: Engine;
  try {
    const { loadEngine } = await loadChunk(() => import('./search-engine.js'));
    engine = await loadEngine();
  } catch (err) {
    container.removeAttribute('aria-busy');
    container.dataset.state = 'error';
    container.textContent = 'Search could not be loaded. Please check your connection and reload the page.';
    console.error('site: search failed to load', err);
    return;
  }
  container.removeAttribute('aria-busy');
  // Time from navigation start until the index is usable, read by the end-to-end test.
  container.dataset.readyMs = performance.now().toFixed(0);
  container.dataset.state = 'ready';

  const run = (q: string) => {
    const t0 = performance.now();
    const hits = q ? engine.search(q) : [];
    render(container, empty, q, hits);
    // Query and rendering time, read by the end-to-end test (issue 4 asks for under 100 ms).
    container.dataset.searchMs = (performance.now() - t0).toFixed(2);
  };
  run(query);

  // On this page the header box searches as you type; Enter still submits to the same URL.
  let timer: ReturnType<typeof setTimeout> | undefined;
  for (const input of inputs) {
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        query = input.value.trim();
        const url = new URL(location.href);
        if (query) url.searchParams.set('q', query);
        else url.searchParams.delete('q');
        history.replaceState(null, '', url);
        run(query);
      }, SEARCH.inputDebounceMs);
    });
  }
}

void start();
