/** Test helpers for `site serve`: a temporary copy of the fixture dist and raw HTTP clients. */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FIXTURE_DIST = fileURLToPath(new URL('../fixtures/serve-dist', import.meta.url));

export interface Sandbox {
  root: string;
  dist: string;
  dataDir: string;
  cleanup(): void;
}

/** A fresh folder holding a copy of the fixture as `dist/`, with a data dir beside it. */
export function sandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'site-serve-'));
  const dist = join(root, 'dist');
  cpSync(FIXTURE_DIST, dist, { recursive: true });
  return { root, dist, dataDir: join(root, 'data'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A request through node:http: no URL normalisation, no automatic decompression. */
export function request(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string | number>; body?: string | Buffer } = {},
): Promise<Reply> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: opts.method ?? 'GET', headers: { connection: 'close', ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** Writes the request line byte for byte (NUL, backslashes, anything) and returns status and raw response. */
export function rawRequest(base: string, target: string): Promise<{ status: number; raw: Buffer }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    socket.on('connect', () => {
      socket.write(
        Buffer.concat([Buffer.from('GET '), Buffer.from(target, 'latin1'), Buffer.from(` HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`)]),
      );
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => {
      const raw = Buffer.concat(chunks);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(raw.toString('latin1'));
      resolve({ status: m ? Number(m[1]) : 0, raw });
    });
    socket.on('error', reject);
  });
}

export const VALID = {
  name: 'Ada Buyer',
  email: 'ada@buyer.example',
  company: 'Buyer Foods Ltd',
  country: 'Germany',
  phone: '+49 30 1234567',
  product: 'Bulk Curcumin',
  type: 'quote',
  quantity: '25 kg',
  message: 'Please quote 25 kg of curcumin 95% with COA.',
  page: '/monomer/bulk-curcumin',
} as const;

export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export interface FakeSmtp {
  port: number;
  /** The DATA of each message received. */
  messages: string[];
  close(): Promise<void>;
}

/** Just enough SMTP (RFC 5321, no TLS, no auth) for nodemailer to deliver a message. */
export function fakeSmtp(): Promise<FakeSmtp> {
  const messages: string[] = [];
  const server = createNetServer((socket) => {
    let buffer = '';
    let data: string[] | null = null;
    socket.write('220 fake.smtp ESMTP\r\n');
    socket.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        if (data) {
          if (line === '.') {
            messages.push(data.join('\n'));
            data = null;
            socket.write('250 2.0.0 queued\r\n');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake.smtp\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
    socket.on('error', () => undefined);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as { port: number }).port,
        messages,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
