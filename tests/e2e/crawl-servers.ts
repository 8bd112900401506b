/**
 * Real static servers on 127.0.0.1 for the crawl tests: `site serve`,
 * Python's http.server and nginx (Debian's, with a config written into a
 * temporary folder: pid, logs and temp paths inside it). Each is started
 * on a free port, awaited until it accepts connections, and stopped by its
 * own process id.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const NGINX = '/usr/sbin/nginx';

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function accepting(port: number, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before listening`);
    const ok = await new Promise<boolean>((done) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        done(true);
      });
      socket.on('error', () => done(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on 127.0.0.1:${port} within 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      child.once('exit', () => {
        clearTimeout(timer);
        done();
      });
      child.kill('SIGTERM');
    });
}

async function started(command: string, args: string[], ports: number[], what: string): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => void (stderr += c.toString()));
  try {
    for (const port of ports) await accepting(port, child, what);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${stderr}`);
  }
  return child;
}

export async function siteServe(dir: string): Promise<RunningServer> {
  const port = await freePort();
  const data = mkdtempSync(join(tmpdir(), 'crawl-serve-data-'));
  const child = await started(process.execPath, ['bin/site', 'serve', '--dir', dir, '--port', String(port), '--data-dir', data], [port], 'site serve');
  return { url: `http://127.0.0.1:${port}/`, stop: stopper(child) };
}

export async function pythonServer(dir: string): Promise<RunningServer> {
  const port = await freePort();
  const child = await started(
    'python3',
    ['-m', 'http.server', '--bind', '127.0.0.1', '--directory', resolve(dir), String(port)],
    [port],
    'python3 -m http.server',
  );
  return { url: `http://127.0.0.1:${port}/`, stop: stopper(child) };
}

/** One nginx server block: extra directives inside `server { … }`. */
export interface NginxSite {
  root: string;
  directives: string;
}

/** nginx with one server block per site, each on its own port; urls in the same order. */
export async function nginx(sites: NginxSite[]): Promise<{ urls: string[]; stop(): Promise<void> }> {
  if (!existsSync(NGINX)) throw new Error(`nginx is missing at ${NGINX}; the crawl tests need it: apt-get install nginx`);
  const dir = mkdtempSync(join(tmpdir(), 'crawl-nginx-'));
  mkdirSync(join(dir, 'logs'));
  mkdirSync(join(dir, 'temp'));
  const ports: number[] = [];
  for (let i = 0; i < sites.length; i++) ports.push(await freePort());
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${join(dir, 'temp', t)};`).join('\n');
  const servers = sites
    .map((s, i) => `  server {\n    listen 127.0.0.1:${ports[i]};\n    root ${resolve(s.root)};\n    absolute_redirect off;\n${s.directives}\n  }`)
    .join('\n');
  const conf = `worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'logs', 'error.log')} warn;
events { worker_connections 256; }
http {
  access_log off;
${temp}
  types { text/html html; text/plain txt; application/xml xml; application/javascript js; image/png png; }
  default_type application/octet-stream;
  keepalive_timeout 5;
${servers}
}
`;
  writeFileSync(join(dir, 'nginx.conf'), conf);
  const child = await started(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log'), '-g', 'daemon off;'], ports, 'nginx');
  return { urls: ports.map((p) => `http://127.0.0.1:${p}/`), stop: stopper(child) };
}
