/**
 * The render pool: one worker thread per core (piscina), fed with batches of
 * routes so that work streams through instead of being queued all at once.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { RenderResult, RenderTask, WorkerConfig } from './protocol.js';

export interface RenderPool {
  run<T extends RenderResult>(task: RenderTask): Promise<T>;
  destroy(): Promise<void>;
  readonly threads: number;
}

export function defaultConcurrency(): number {
  return Math.max(1, availableParallelism());
}

export function createRenderPool(config: WorkerConfig, threads = defaultConcurrency()): RenderPool {
  const pool = new Piscina({
    filename: fileURLToPath(new URL('./worker.js', import.meta.url)),
    minThreads: threads,
    maxThreads: threads,
    // Workers write files between awaits; synchronous Atomics waiting would starve their I/O.
    atomics: 'disabled',
    idleTimeout: 60_000,
    workerData: config,
    // Rendering makes many short-lived strings and elements: a larger young generation
    // means far fewer scavenges (a sixth of a worker's time with the default 16 MB).
    resourceLimits: { maxYoungGenerationSizeMb: 64 },
    // React picks its development build (10x slower) unless NODE_ENV says production.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  let destroyed: Promise<void> | undefined;
  return {
    threads,
    run: <T extends RenderResult>(task: RenderTask) => pool.run(task) as Promise<T>,
    // Idempotent: a failed build stops the workers before cleaning up, and the finally block does it again.
    destroy: () => (destroyed ??= pool.destroy()),
  };
}

/** Batch size: a few batches per thread for balance, not so small that message overhead dominates. */
export function batchSizeFor(routeCount: number, threads: number): number {
  return Math.min(256, Math.max(8, Math.ceil(routeCount / (threads * 12))));
}
