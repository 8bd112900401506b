/**
 * The /search page: reads `q`, starts the search worker (engine and index
 * load off the main thread), and lists results as links with highlighted
 * snippets. No results shows the
 * /search/404 suggestions the page already holds ([data-search-empty]).
 * Typing in the page's search box updates the results and the URL.
 */
// Importing the page's main module (already loaded by every page, so it runs
// once) lets the bundler keep the shared code inside main's file instead of a
// third shared chunk every page would have to fetch.
import './main.js';
import { ChunkLoadError, loadChunk } from './chunk.js';
import { SEARCH } from './constants.js';
import { KIND_LABELS } from './search-options.js';
import type { Hit } from './search-engine.js';
import type { WorkerReply, WorkerRequest } from './search-worker.js';
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

/** The engine, in a worker; resolves once the index is loaded. */
function startWorker(): Promise<{ search(query: string): Promise<Hit[]> }> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./search-worker.ts', import.meta.url), { type: 'module' });
    } catch (err) {
      reject(err);
      return;
    }
    let next = 0;
    const pending = new Map<number, (hits: Hit[]) => void>();
    worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => {
      const reply = event.data;
      if (reply.type === 'ready') {
        resolve({
          search: (query) =>
            new Promise<Hit[]>((done) => {
              const id = ++next;
              pending.set(id, done);
              worker.postMessage({ type: 'search', id, query } satisfies WorkerRequest);
            }),
        });
      } else if (reply.type === 'error') reject(new Error(reply.message));
      else {
        pending.get(reply.id)?.(reply.hits);
        pending.delete(reply.id);
      }
    });
    // The worker's script itself failed to load (a deploy replaced it, or the network).
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      reject(new ChunkLoadError('the search worker could not be loaded'));
    });
    worker.postMessage({ type: 'load' } satisfies WorkerRequest);
  });
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
  let engine: { search(query: string): Promise<Hit[]> };
  try {
    // Only the worker's script failing is a stale or broken chunk worth a reload; an index error is reported.
    engine = await loadChunk(startWorker, (err) => err instanceof ChunkLoadError);
  } catch (err) {
    container.removeAttribute('aria-busy');
    container.dataset.state = 'error';
    container.textContent = 'Search could not be loaded. Please check your connection and reload the page.';
    console.error('site: search failed to load', err);
    return;
  }
  // Time from navigation start until the index is usable, read by the end-to-end test.
  container.dataset.readyMs = performance.now().toFixed(0);

  // Only the latest query renders: answers to older ones are dropped.
  let latest = 0;
  const run = async (q: string) => {
    const mine = ++latest;
    const t0 = performance.now();
    const hits = q ? await engine.search(q) : [];
    if (mine !== latest) return;
    render(container, empty, q, hits);
    // Query, worker round trip and rendering, read by the end-to-end test (issue 4 asks for under 100 ms).
    container.dataset.searchMs = (performance.now() - t0).toFixed(2);
    // Which query the results on screen answer, so a reader (or a test) never takes older results for new ones.
    container.dataset.query = q;
  };
  await run(query);
  // "ready" means the results for the URL's query are on screen, not merely that the index loaded.
  container.removeAttribute('aria-busy');
  container.dataset.state = 'ready';

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
        void run(query);
      }, SEARCH.inputDebounceMs);
    });
  }
}

void start();
