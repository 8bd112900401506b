/**
 * `site serve`'s connections: how long an idle keep-alive connection stays
 * usable, and when a client that never finishes its headers is cut off. The
 * time-outs are shortened through the options; their defaults are asserted
 * on their own.
 */
import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULTS, type RunningServer, type ServeOptions, startServer, timeoutCheckIntervalMs } from '../../src/serve/server.js';
import { type Sandbox, sandbox } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const box: Sandbox = sandbox();
  cleanups.push(() => box.cleanup());
  const s = await startServer({ dir: box.dist, dataDir: box.dataDir, port: 0, watch: false, log: () => undefined, ...extra });
  cleanups.push(() => s.close());
  return s;
}

/** A raw connection that collects what the server sends and when it closes. */
function open(url: string): Promise<{ socket: Socket; received: () => string; closed: Promise<number> }> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => undefined);
    const closed = new Promise<number>((done) => socket.on('close', () => done(performance.now())));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const waitFor = async (what: () => boolean, ms: number) => {
  const deadline = performance.now() + ms;
  while (!what() && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
};
const responses = (text: string) => text.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('idle keep-alive connections', () => {
  it('stay open longer than the proxies in front keep theirs (nginx 75 s, load balancers 60 s)', async () => {
    const s = await serve();
    expect(DEFAULTS.keepAliveTimeoutMs).toBeGreaterThan(75_000);
    expect(s.server.keepAliveTimeout).toBe(DEFAULTS.keepAliveTimeoutMs);
  });

  it('are reused within the keep-alive time-out and closed after it', async () => {
    const s = await serve({ keepAliveTimeoutMs: 1500 });
    const c = await open(s.url);
    const get = `GET /monomer HTTP/1.1\r\nHost: x\r\n\r\n`;
    c.socket.write(get);
    await waitFor(() => responses(c.received()).length === 1, 2000);
    // Idle for 1 s, then used again: the same connection answers.
    await sleep(1000);
    c.socket.write(get);
    await waitFor(() => responses(c.received()).length === 2, 2000);
    const lastAnswer = performance.now();
    expect(responses(c.received())).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(c.received()).toMatch(/^Keep-Alive: timeout=1$/im);
    // Then left idle: closed by the server after its time-out, not node's 5 s.
    const closedAt = await Promise.race([c.closed, sleep(4000).then(() => Infinity)]);
    expect(closedAt - lastAnswer).toBeGreaterThan(1000);
    expect(closedAt - lastAnswer).toBeLessThan(3000);
  });
});

describe('slow clients', () => {
  it('are cut within a second of the headers time-out (node checks every 30 s by default)', () => {
    expect(DEFAULTS.headersTimeoutMs).toBe(20_000);
    expect(DEFAULTS.requestTimeoutMs).toBe(30_000);
    expect(timeoutCheckIntervalMs(DEFAULTS.headersTimeoutMs)).toBeLessThanOrEqual(1000);
  });

  it('a header that never ends gets 408 at the headers time-out', async () => {
    const s = await serve({ headersTimeoutMs: 1000, requestTimeoutMs: 2000 });
    expect(s.server.headersTimeout).toBe(1000);
    expect(s.server.requestTimeout).toBe(2000);
    const c = await open(s.url);
    const start = performance.now();
    c.socket.write('GET /monomer HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const closedAt = await Promise.race([c.closed, sleep(5000).then(() => Infinity)]);
    expect(closedAt - start).toBeGreaterThan(900);
    expect(closedAt - start).toBeLessThan(1800);
    expect(c.received()).toMatch(/^HTTP\/1\.1 408/);
  });
});
