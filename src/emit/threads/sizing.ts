/**
 * How many render threads a build uses, and how its heaps may grow.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { defaultConcurrency } from './pool.js';

/**
 * Below this many routes, and unless --concurrency says otherwise, the main
 * thread renders alone: a worker costs its own start-up, React and template
 * import, catalogue snapshot and a second cold JIT, which a catalogue of the
 * shipped size does not repay (docs/PERFORMANCE.md has the figures). Nor
 * does the second core sit idle meanwhile: a cold process spends it on V8's
 * background compiler and collector.
 */
export const PARALLEL_MIN_ROUTES = 5000;

/** Render threads, the main thread counted: as asked, else by the catalogue's size. */
export function threadsFor(routes: number, asked?: number): number {
  return asked ?? (routes >= PARALLEL_MIN_ROUTES ? defaultConcurrency() : 1);
}

/**
 * How far (in percent) a heap may grow past what it held after the last full
 * collection, in builds of PARALLEL_MIN_ROUTES or more. Rendering promotes a
 * steady trickle of short-lived objects (the main thread yields between pages,
 * so a page's objects outlive a scavenge) that only a full collection frees;
 * at V8's default growing factor a large build's heaps grow to several times
 * what they hold (docs/PERFORMANCE.md, "Worker heaps").
 */
const LARGE_BUILD_HEAP_GROWING_PERCENT = 15;

/**
 * The same in a process that builds again (`site build --watch`, which passes buildSite its BuildMemory). Its heap holds the
 * last check's results besides the build's own, and each build allocates gigabytes that die young at 100,000
 * routes: at 15 % the main thread spent about a third of a build collecting. At 35 % an edit's build took
 * 0.89× the time for a peak 3–6 % higher (docs/PERFORMANCE.md, "A resident build's heap").
 */
const RESIDENT_HEAP_GROWING_PERCENT = 35;

/**
 * Bounds heap growth for a large build. The flag counts from the next full
 * collection, so one is made now: the garbage of the phases before goes, and
 * the bound holds from here rather than from whenever something large forces one.
 */
export function boundHeapGrowth(routes: number, resident = false): void {
  if (routes < PARALLEL_MIN_ROUTES) return;
  setFlagsFromString(`--heap-growing-percent=${resident ? RESIDENT_HEAP_GROWING_PERCENT : LARGE_BUILD_HEAP_GROWING_PERCENT}`);
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}
