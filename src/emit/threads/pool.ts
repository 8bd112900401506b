/**
 * The render pool: worker threads (piscina) plus, by default, the main thread
 * itself, fed with batches of routes so that work streams through instead of
 * being queued all at once.
 *
 * The main thread renders too because on a small machine it would otherwise
 * mostly wait: with one worker per core beside it, three threads competed for
 * two cores, and every worker paid its own start-up (Node, React, the
 * templates, the catalogue snapshot). Now `threads` counts the main thread:
 * two threads are the main thread and one worker; one thread is the main
 * thread alone, with no worker and no snapshot at all.
 */
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Piscina as PiscinaPool } from 'piscina';
import type { Catalogue } from '../../core/catalogue.js';
import type { RenderResult, RenderTask, WorkerConfig } from './protocol.js';
import { createRenderer, type Renderer } from './worker.js';

export interface RenderPool {
  run<T extends RenderResult>(task: RenderTask): Promise<T>;
  /**
   * Lets the main thread render, from the catalogue it holds (the checked
   * one), with `renderer` when it made one already (createRenderer with that
   * catalogue). Until then, and whenever it is busy, tasks go to the workers.
   */
  startMainThread(catalogue: Catalogue, renderer?: Renderer): void;
  destroy(): Promise<void>;
  /** Render threads, the main thread included. */
  readonly threads: number;
  /** Worker threads: 0 when the main thread renders alone (then no snapshot is needed). */
  readonly workers: number;
}

export function defaultConcurrency(): number {
  return Math.max(1, availableParallelism());
}

/** piscina, loaded when a pool has workers: a build that renders nothing, or on the main thread alone, never needs it. */
const loadPiscina = (): typeof PiscinaPool => (createRequire(import.meta.url)('piscina') as { Piscina: typeof PiscinaPool }).Piscina;

export function createRenderPool(config: WorkerConfig, threads = defaultConcurrency()): RenderPool {
  const workers = Math.max(0, threads - 1);
  const Piscina = workers === 0 ? null : loadPiscina();
  const pool =
    Piscina === null
      ? null
      : new Piscina({
          filename: fileURLToPath(new URL('./worker.js', import.meta.url)),
          minThreads: workers,
          maxThreads: workers,
          // Workers write files between awaits; synchronous Atomics waiting would starve their I/O.
          atomics: 'disabled',
          idleTimeout: 60_000,
          workerData: config,
          // Rendering makes many short-lived strings and elements: a young generation larger than
          // V8's default means far fewer scavenges; past 32 MB it only costs memory (docs/PERFORMANCE.md).
          resourceLimits: { maxYoungGenerationSizeMb: 32 },
        });
  let local: Renderer | undefined;
  let localBusy = false;
  /** Tasks waiting for the main thread when there is no worker to take them. */
  const waiting: Array<() => void> = [];
  const runLocal = async (task: RenderTask): Promise<RenderResult> => {
    localBusy = true;
    try {
      return await local!(task);
    } finally {
      localBusy = false;
      waiting.shift()?.();
    }
  };
  let destroyed: Promise<void> | undefined;
  return {
    threads: workers + 1,
    workers,
    startMainThread(catalogue, renderer) {
      local = renderer ?? createRenderer(config, catalogue);
      waiting.shift()?.();
    },
    run: async <T extends RenderResult>(task: RenderTask): Promise<T> => {
      if (local !== undefined && !localBusy) return (await runLocal(task)) as T;
      if (pool !== null) return (await pool.run(task)) as T;
      // Main thread only: one task at a time, in the order asked.
      await new Promise<void>((resume) => waiting.push(resume));
      return (await runLocal(task)) as T;
    },
    // Idempotent: a failed build stops the workers before cleaning up, and the finally block does it again.
    destroy: () => (destroyed ??= pool === null ? Promise.resolve() : pool.destroy()),
  };
}

/** Batch size: a few batches per thread for balance, not so small that message overhead dominates. */
export function batchSizeFor(routeCount: number, threads: number): number {
  return Math.min(256, Math.max(8, Math.ceil(routeCount / (threads * 12))));
}
