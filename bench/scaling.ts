/**
 * How much a second thread can add on this machine, before any pool, file or
 * message: the warm render loop over a catalogue's routes on one thread, then
 * on two at once (this thread and a worker, each rendering every route); and
 * the same for a plain memory-streaming loop. On the machines here the second
 * render thread adds far less than a second core would suggest: two threads
 * streaming memory each ran about three times slower than one alone, and
 * rendering (which allocates and copies strings all the time) suffers with
 * them. That bounds what any render pool gains here.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { checkDataDir } from '../src/check/run.js';
import { defaultClientDir, readAssetRefs } from '../src/emit/files/assets.js';
import { createSiteModel, renderRouteParts } from '../src/render/index.js';

const PASSES = 3;

interface Probe {
  /** Milliseconds of each timed render pass over every route. */
  render: number[];
  /** Milliseconds of each timed memory-streaming pass. */
  stream: number[];
  pages: number;
}

/** A loop that does nothing but stream through 64 MB of memory. */
function streamOnce(): number {
  const started = performance.now();
  const a = new Float64Array(8_000_000);
  for (let pass = 0; pass < 5; pass++) for (let i = 0; i < a.length; i += 8) a[i] += pass;
  return performance.now() - started;
}

/** Loads and warms up (one untimed pass), waits for `go`, then times PASSES render passes and PASSES stream passes. */
async function probe(dataDir: string, go: () => Promise<void>): Promise<Probe> {
  const checked = await checkDataDir(dataDir);
  if (checked.catalogue === null) throw new Error(`${dataDir} does not load`);
  const model = createSiteModel(checked.catalogue, readAssetRefs(defaultClientDir()));
  const pass = (): number => {
    const started = performance.now();
    for (const route of checked.routes) renderRouteParts(model, route);
    return performance.now() - started;
  };
  pass();
  streamOnce();
  await go();
  const render = Array.from({ length: PASSES }, pass);
  const stream = Array.from({ length: PASSES }, streamOnce);
  return { render, stream, pages: checked.routes.length };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface Scaling {
  pages: number;
  /** Pages per second of one thread alone. */
  alone: number;
  /** Pages per second of each of two threads running at once. */
  together: [number, number];
  /** Milliseconds of a memory-streaming pass alone, and of each of two at once. */
  streamAlone: number;
  streamTogether: [number, number];
}

/** Runs the probe alone, then on this thread and a worker at once. */
export async function measureScaling(dataDir: string): Promise<Scaling> {
  const alone = await probe(dataDir, async () => undefined);
  const worker = new Worker(new URL(import.meta.url), { workerData: { scalingProbe: dataDir }, env: { ...process.env, NODE_ENV: 'production' } });
  try {
    // The worker's answers, kept until asked for: its result may come before this thread has finished its own passes.
    const inbox: unknown[] = [];
    let failure: unknown;
    let waiting: { resolve: () => void; reject: (err: unknown) => void } | undefined;
    worker.on('message', (m) => {
      inbox.push(m);
      waiting?.resolve();
    });
    worker.on('error', (err) => {
      failure = err;
      waiting?.reject(err);
    });
    const next = async (): Promise<unknown> => {
      while (inbox.length === 0) {
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve, reject) => (waiting = { resolve, reject }));
      }
      return inbox.shift();
    };
    // Both threads load and warm up; the timed passes start together.
    const mine = probe(dataDir, async () => {
      if ((await next()) !== 'ready') throw new Error('the scaling probe worker did not get ready');
      worker.postMessage('go');
    });
    const [main, other] = await Promise.all([mine, mine.then(() => next() as Promise<Probe>)]);
    const rate = (p: Probe) => p.pages / (median(p.render) / 1000);
    return {
      pages: alone.pages,
      alone: rate(alone),
      together: [rate(main), rate(other)],
      streamAlone: median(alone.stream),
      streamTogether: [median(main.stream), median(other.stream)],
    };
  } finally {
    await worker.terminate();
  }
}

if (!isMainThread && (workerData as { scalingProbe?: string } | null)?.scalingProbe !== undefined) {
  const port = parentPort!;
  const result = await probe((workerData as { scalingProbe: string }).scalingProbe, async () => {
    port.postMessage('ready');
    await new Promise<void>((resolve) => port.once('message', () => resolve()));
  });
  port.postMessage(result);
}
