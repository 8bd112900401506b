/** Test helpers for `site dev`: a temporary copy of data/, the dev server as a child process, an event-stream reader. */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin/site');
export const SHIPPED_DATA = join(ROOT, 'data');

/** An article of the shipped catalogue and its page. */
export const ARTICLE = { file: 'articles/5-htp-benefits-what-research-says.json', path: '/knowledge/5-htp-benefits-what-research-says' } as const;

export interface Sandbox {
  root: string;
  data: string;
  store: string;
  cleanup(): void;
}

/** A fresh folder with a copy of the shipped data/ (never edit the repository's own). */
export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'site-dev-'));
  const data = join(root, 'data');
  cpSync(SHIPPED_DATA, data, { recursive: true });
  return { root, data, store: join(root, 'store'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Rewrites a JSON file of the sandbox's data/ through `edit`. */
export function editJson(data: string, file: string, edit: (value: Record<string, unknown>) => void): void {
  const path = join(data, file);
  const value = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  edit(value);
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

export interface Running {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `bin/site dev` with `args` (a free port unless --port is given) and resolves once it listens. */
export function startDev(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Running> {
  const port = args.includes('--port') ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [BIN, 'dev', ...port, ...args], {
    cwd,
    env: { ...process.env, NODE_ENV: 'production', SITE_CACHE_DIR: join(cwd, '.cache'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = / on (http:\/\/[^\s]+) /.exec(err);
      if (m) resolve({ child, url: m[1], stderr: () => err, exited, stop });
    });
    void exited.then(({ code }) => reject(new Error(`site dev exited (${code}) before listening:\n${err}`)));
  });
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export function request(base: string, path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface EventStream {
  /** Every event received so far: its name and data. */
  events: Array<{ event: string; data: string }>;
  /** Resolves with the first event named `name` after `from` events (default: any so far). */
  next(name: string, from?: number, timeoutMs?: number): Promise<{ event: string; data: string }>;
  close(): void;
}

/** Opens `/__site/events` as the dev script does, for the page at `path` showing HTML of fingerprint `hash`. */
export function openEvents(base: string, path: string, hash: string): Promise<EventStream> {
  const url = new URL(base);
  const events: Array<{ event: string; data: string }> = [];
  const waiters: Array<() => void> = [];
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: `/__site/events?path=${encodeURIComponent(path)}&hash=${encodeURIComponent(hash)}` },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
            if (event) events.push({ event, data });
            for (const w of waiters.splice(0)) w();
          }
        });
        res.on('error', () => undefined);
        resolve({
          events,
          next(name, from = 0, timeoutMs = 10_000) {
            return new Promise((done, fail) => {
              const timer = setTimeout(() => fail(new Error(`no "${name}" event within ${timeoutMs} ms; got ${JSON.stringify(events)}`)), timeoutMs);
              const look = () => {
                const found = events.slice(from).find((e) => e.event === name);
                if (found) {
                  clearTimeout(timer);
                  done(found);
                } else waiters.push(look);
              };
              look();
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The fingerprint the dev script of a served page carries. */
export const hashOf = (html: string): string => /data-hash="([^"]+)"/.exec(html)?.[1] ?? '';
