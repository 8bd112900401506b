/**
 * The search engine in a worker: parsing a large index and rebuilding
 * MiniSearch from it takes seconds of CPU on a slow phone, which on the page's
 * main thread would freeze scrolling and typing. The page posts queries and
 * gets result lists back.
 */
import { loadEngine, type Answer, type Engine } from './search-engine.js';
import type { SearchKind } from '../core/search-options.js';

export type WorkerRequest = { type: 'load' } | { type: 'search'; id: number; query: string; kind: SearchKind | null };
export type WorkerReply =
  | { type: 'ready'; documents: number }
  | { type: 'error'; message: string }
  | { type: 'results'; id: number; answer: Answer; ms: number };

let engine: Promise<Engine> | null = null;
const reply = (message: WorkerReply) => (self as unknown as { postMessage(m: WorkerReply): void }).postMessage(message);

self.addEventListener('message', (event: MessageEvent<WorkerRequest>) => {
  const request = event.data;
  if (request.type === 'load') {
    engine ??= loadEngine();
    engine.then(
      (e) => reply({ type: 'ready', documents: e.documents }),
      (err: unknown) => reply({ type: 'error', message: err instanceof Error ? err.message : String(err) }),
    );
  } else if (request.type === 'search' && engine) {
    void engine.then((e) => {
      const t0 = performance.now();
      const answer = e.search(request.query, request.kind);
      reply({ type: 'results', id: request.id, answer, ms: performance.now() - t0 });
    });
  }
});
