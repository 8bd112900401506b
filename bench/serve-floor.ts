/**
 * The node:http floor of `npm run bench -- serve`: a bare node:http server
 * that answers each page with bytes `site serve` sent for it (status, header
 * lines and brotli body, recorded by the bench), looked up in a Map, with no
 * code of ours in between. What it costs per request is what node:http costs
 * for the same answers: no change to `site serve`'s handler can go below it.
 *
 * Usage: node build/bench/serve-floor.js <recorded.json> <port>
 * recorded.json: [{ path, status, headers: [name, value, …], body: base64 }]
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

interface Recorded {
  path: string;
  status: number;
  headers: string[];
  body: string;
}

const [file, port] = process.argv.slice(2);
const answers = new Map<string, { status: number; headers: string[]; body: Buffer }>();
for (const r of JSON.parse(readFileSync(file, 'utf8')) as Recorded[]) {
  answers.set(r.path, { status: r.status, headers: r.headers, body: Buffer.from(r.body, 'base64') });
}

const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404);
    return void res.end();
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
// The keep-alive `site serve` keeps (90 s), so that neither closes a connection the load generator reuses.
server.keepAliveTimeout = 90_000;
server.listen(Number(port), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
