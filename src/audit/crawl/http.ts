/**
 * The crawl's HTTP client: GET over kept-alive sockets (at most `sockets`
 * per host), no redirect following (the crawler records each hop), a time
 * limit per request, and one retry of a GET whose reused socket the server
 * had closed (a keep-alive race, not a fault of the site).
 */
import http from 'node:http';
import https from 'node:https';

/** The response headers the audit records and its rules read. */
export const RECORDED_HEADERS = [
  'content-type',
  'content-length',
  'location',
  'cache-control',
  'x-robots-tag',
  'link',
  'strict-transport-security',
  'content-security-policy',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
] as const;

export interface HttpResponse {
  status: number;
  /** Recorded headers only, lower-case names, repeated ones joined with ', '. */
  headers: Record<string, string>;
  /** The body as text when `keepBody` accepted the content type; null otherwise. */
  body: string | null;
  /** Bytes of the body as sent (identity encoding: none is asked for). */
  bytes: number;
}

export type HttpResult = ({ ok: true } & HttpResponse) | { ok: false; error: string };

export interface HttpClientOptions {
  /** Sockets per host: the crawl's concurrency. */
  sockets: number;
  timeoutMs: number;
  userAgent: string;
  /** Largest body kept as text; longer ones are cut off and reported as an error. */
  maxBodyBytes?: number;
}

export interface HttpClient {
  /** `keepBody(contentType)` says whether the body is wanted as text. */
  get(url: string, keepBody: (contentType: string) => boolean): Promise<HttpResult>;
  close(): void;
}

const MAX_BODY = 20 * 1024 * 1024;

/** Whether a failed request may be sent again: the server closed a kept-alive socket as we reused it. */
export function isStaleSocketError(err: NodeJS.ErrnoException, reusedSocket: boolean): boolean {
  return reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE' || err.message === 'socket hang up');
}

function pickHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const v = raw[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

export function createHttpClient(opts: HttpClientOptions): HttpClient {
  const agentOptions = { keepAlive: true, maxSockets: opts.sockets, maxFreeSockets: opts.sockets };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };
  const maxBody = opts.maxBodyBytes ?? MAX_BODY;

  const once = (url: URL, keepBody: (contentType: string) => boolean): Promise<HttpResult & { retry?: boolean }> =>
    new Promise((resolve) => {
      const lib = url.protocol === 'https:' ? https : http;
      let settled = false;
      const done = (r: HttpResult & { retry?: boolean }): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(r);
      };
      const req = lib.request(
        url,
        { method: 'GET', agent: agents[url.protocol as 'http:' | 'https:'], headers: { 'user-agent': opts.userAgent, accept: '*/*' } },
        (res) => {
          const headers = pickHeaders(res.headers);
          const wanted = keepBody(headers['content-type'] ?? '');
          const chunks: Buffer[] = [];
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (!wanted) return;
            if (bytes > maxBody) {
              req.destroy();
              done({ ok: false, error: `body over ${maxBody} bytes` });
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => done({ ok: true, status: res.statusCode ?? 0, headers, body: wanted ? Buffer.concat(chunks).toString('utf8') : null, bytes }));
          res.on('error', (err) => done({ ok: false, error: err.message }));
        },
      );
      const timer = setTimeout(() => {
        req.destroy();
        done({ ok: false, error: `no complete answer within ${opts.timeoutMs / 1000} s` });
      }, opts.timeoutMs);
      req.on('error', (err: NodeJS.ErrnoException) => {
        done({ ok: false, error: err.code ? `${err.code}: ${err.message}` : err.message, retry: isStaleSocketError(err, req.reusedSocket) });
      });
      req.end();
    });

  return {
    async get(url, keepBody) {
      const parsed = new URL(url);
      const first = await once(parsed, keepBody);
      const result = first.ok || !first.retry ? first : await once(parsed, keepBody);
      if (!result.ok) return { ok: false, error: result.error };
      return result;
    },
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
