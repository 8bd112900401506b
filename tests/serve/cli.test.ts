/**
 * `bin/site serve` and `bin/site inquiries` as child processes (needs the
 * compiled build/: `npx tsc -p tsconfig.json`), including the crash test:
 * SIGKILL under load loses no inquiry that was answered with success.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/serve/store.js';
import { type Sandbox, VALID, fakeSmtp, request, sandbox } from './helpers.js';
import { requireFreshBuild } from '../compiled.js';

const BIN = fileURLToPath(new URL('../../bin/site', import.meta.url));

let box: Sandbox;
beforeAll(() => {
  requireFreshBuild();
  box = sandbox();
});
afterAll(() => box?.cleanup());

interface Serving {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function serve(args: string[], env: Record<string, string> = {}): Promise<Serving> {
  const port = 'PORT' in env ? [] : ['--port', '0'];
  const child = spawn(process.execPath, [BIN, 'serve', ...port, ...args], {
    cwd: box.root,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = / on (http:\/\/[^\s]+) /.exec(err);
      if (m) resolve({ child, url: m[1], stderr: () => err, exited });
    });
    void exited.then(({ code }) => reject(new Error(`site serve exited (${code}) before listening:\n${err}`)));
  });
}

function site(args: string[]): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: box.root, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

describe('site serve (process)', () => {
  it('serves pages, takes an inquiry and shuts down cleanly on SIGTERM', async () => {
    const s = await serve(['--data-dir', 'data-term']);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await request(s.url, '/monomer/bulk-curcumin')).status).toBe(200);
    const r = await request(s.url, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID) });
    expect(r.status).toBe(201);
    s.child.kill('SIGTERM');
    expect(await s.exited).toEqual({ code: 0, signal: null });
    expect(s.stderr()).toMatch(/SIGTERM: finishing requests in flight, then closing the store/);
    // Closed cleanly: the WAL was checkpointed into the database file and removed.
    expect(existsSync(join(box.root, 'data-term', 'inquiries.db-wal'))).toBe(false);
  });

  it('e-mails each inquiry through the SMTP server SITE_SMTP_URL names', async () => {
    const smtp = await fakeSmtp();
    const s = await serve(['--data-dir', 'data-mail'], { SITE_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SITE_NOTIFY_TO: 'sales@supplier.example' });
    try {
      const r = await request(s.url, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID) });
      expect(r.status).toBe(201);
      const { id } = JSON.parse(r.text) as { id: string };
      await expect.poll(() => smtp.messages.length, { timeout: 15_000 }).toBe(1);
      const mail = smtp.messages[0];
      expect(mail).toMatch(/^To: sales@supplier\.example$/m);
      expect(mail).toMatch(/^Reply-To: ada@buyer\.example$/m);
      expect(mail).toContain(VALID.message);
      await expect.poll(() => site(['inquiries', 'show', id, '--data-dir', 'data-mail']).stdout, { timeout: 5000 }).toMatch(/Notification:\s+sent/);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
      await smtp.close();
    }
    const bad = site(['serve', '--port', '0', '--data-dir', 'data-mail', '--smtp-url', 'mail.example.com', '--notify-to', 'a@b.example']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/the SMTP URL must look like smtp:\/\/user:password@host:587/);
  });

  it('refuses a data dir inside dist/ and a missing dist/ with exit code 2', () => {
    const inside = site(['serve', '--port', '0', '--data-dir', 'dist/data']);
    expect(inside.status).toBe(2);
    expect(inside.stderr).toMatch(/inside --dir dist: the inquiry store would be published/);
    const missing = site(['serve', '--port', '0', '--dir', 'nowhere']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/nowhere does not exist or is not a folder: run `site build` first/);
    expect(site(['serve', '--port', 'eighty']).status).toBe(2);
    const notify = site(['serve', '--port', '0', '--notify-to', 'sales']);
    expect(notify.status).toBe(2);
    expect(notify.stderr).toMatch(/the recipient \(SITE_NOTIFY_TO, --notify-to\) "sales" is not an e-mail address/);
  });

  it('listens on $PORT when --port is not given', async () => {
    const s = await serve(['--data-dir', 'data-env'], { PORT: '0' });
    try {
      expect((await request(s.url, '/thanks')).status).toBe(200);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    const bad = spawnSync(process.execPath, [BIN, 'serve'], { cwd: box.root, encoding: 'utf8', env: { ...process.env, PORT: 'http' } });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('PORT "http": expected a whole number from 0 to 65535');
  });

  it('says so when the port is taken', async () => {
    const first = await serve(['--data-dir', 'data-port']);
    try {
      const port = new URL(first.url).port;
      const second = site(['serve', '--port', port, '--data-dir', 'data-port']);
      expect(second.status).toBe(2);
      expect(second.stderr).toContain(`port ${port} on 127.0.0.1 is in use: pass another --port`);
    } finally {
      first.child.kill('SIGTERM');
      await first.exited;
    }
  });

  it('serves a dist/ holding a symbolic-link loop, saying so in one line; --keep-alive-timeout sets the idle time-out', async () => {
    cpSync(join(box.root, 'dist'), join(box.root, 'dist-loop'), { recursive: true });
    symlinkSync('..', join(box.root, 'dist-loop', 'monomer', 'bulk-curcumin', 'up'));
    const s = await serve(['--dir', 'dist-loop', '--data-dir', 'data-loop', '--keep-alive-timeout', '1']);
    try {
      expect((await request(s.url, '/monomer/bulk-curcumin')).status).toBe(200);
      expect((await request(s.url, '/monomer/bulk-curcumin/up/bulk-curcumin')).status).toBe(404);
      const said = s
        .stderr()
        .split('\n')
        .filter((line) => line.includes('symbolic link'));
      expect(said).toEqual([expect.stringContaining('/monomer/bulk-curcumin/up (a loop)')]);
      // One request on a kept-alive connection, then idle: closed after about a second.
      const closed = await new Promise<number>((resolve, reject) => {
        const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
        let answered = 0;
        socket.on('data', () => (answered = performance.now()));
        socket.on('close', () => resolve(performance.now() - answered));
        socket.on('error', reject);
        socket.write('GET /thanks HTTP/1.1\r\nHost: x\r\n\r\n');
      });
      expect(closed).toBeGreaterThan(800);
      expect(closed).toBeLessThan(3000);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    const bad = site(['serve', '--port', '0', '--keep-alive-timeout', 'soon']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('--keep-alive-timeout "soon": expected a whole number from 1 to 3600');
  });

  it('serves only the endpoint with --api-only', async () => {
    const s = await serve(['--api-only', '--dir', 'nowhere', '--data-dir', 'data-api']);
    try {
      expect((await request(s.url, '/monomer')).status).toBe(404);
      const r = await request(s.url, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID) });
      expect(r.status).toBe(201);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('loses no acknowledged inquiry when killed with SIGKILL under load', async () => {
    const s = await serve(['--data-dir', 'data-crash', '--rate-limit', '0']);
    const agent = new Agent({ keepAlive: true, maxSockets: 32 });
    const acked: string[] = [];
    let failed = 0;
    const post = (i: number) =>
      new Promise<void>((resolve) => {
        const body = JSON.stringify({ ...VALID, message: `Crash test inquiry number ${i}, please quote.` });
        const url = new URL(s.url);
        const req = httpRequest(
          {
            agent,
            host: url.hostname,
            port: url.port,
            path: '/api/inquiry',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => {
              if (res.statusCode === 201) acked.push((JSON.parse(text) as { id: string }).id);
              resolve();
            });
            res.on('error', () => resolve());
          },
        );
        req.on('error', () => {
          failed++;
          resolve();
        });
        req.end(body);
      });
    const total = 2000;
    let next = 0;
    const workers = Array.from({ length: 32 }, async () => {
      while (next < total) await post(next++);
    });
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (acked.length >= 150) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    s.child.kill('SIGKILL');
    await Promise.all(workers);
    agent.destroy();
    expect((await s.exited).signal).toBe('SIGKILL');
    // The kill landed mid-load: some requests were cut off.
    expect(failed).toBeGreaterThan(0);
    expect(acked.length).toBeGreaterThanOrEqual(150);

    const again = await serve(['--data-dir', 'data-crash']);
    try {
      const exported = site(['inquiries', 'export', '--format', 'json', '--data-dir', 'data-crash']);
      expect(exported.status).toBe(0);
      const ids = new Set((JSON.parse(exported.stdout) as Array<{ id: string }>).map((r) => r.id));
      const lost = acked.filter((id) => !ids.has(id));
      expect(lost).toEqual([]);
      const r = await request(again.url, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(VALID) });
      expect(r.status).toBe(201);
    } finally {
      again.child.kill('SIGTERM');
      await again.exited;
    }
  });
});

describe('site inquiries', () => {
  const DATA = 'data-cli';
  let ids: string[] = [];

  beforeAll(() => {
    const store = openStore(join(box.root, DATA), { create: true });
    const add = (patch: Partial<typeof VALID>, spam: string | null = null, at = 0) =>
      store.add({
        inquiry: { ...VALID, ...patch } as never,
        page: VALID.page,
        userAgent: 'UA',
        ip: '192.0.2.1',
        spam,
        notify: false,
        now: new Date(Date.UTC(2026, 0, 1, 10, at)),
      }).id;
    ids = [
      add({ name: '=HYPERLINK("http://evil.example","x")', company: '+cmd|/c calc', message: 'Quote, "please"\nsecond line' }, null, 0),
      add({ name: 'Bob \u001b[31mRed', product: 'Chaga Extract Powder' }, null, 1),
      add({ name: 'Spam Bot' }, 'honeypot', 2),
    ];
    store.close();
  });

  it('lists the newest first, without spam unless --all', () => {
    const r = site(['inquiries', '--data-dir', DATA]);
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+RECEIVED \(UTC\)\s+TYPE\s+NAME/);
    expect(lines[1]).toContain(ids[1]);
    expect(lines[2]).toContain(ids[0]);
    expect(r.stdout).not.toContain('Spam Bot');
    expect(r.stdout).not.toContain('\u001b');
    expect(site(['inquiries', 'list', '--all', '--data-dir', DATA]).stdout).toContain('spam (honeypot)');
    const limited = site(['inquiries', 'list', '--limit', '1', '--data-dir', DATA]);
    expect(limited.stdout).toContain('(1 of 2; --limit 0 shows all)');
    const json = JSON.parse(site(['inquiries', 'list', '--json', '--data-dir', DATA]).stdout) as Array<{ id: string }>;
    expect(json.map((x) => x.id)).toEqual([ids[1], ids[0]]);
  });

  it('shows one inquiry, and fails clearly for an unknown id', () => {
    const r = site(['inquiries', 'show', ids[0], '--data-dir', DATA]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Company:      +cmd|/c calc');
    expect(r.stdout).toContain('Message:\n  Quote, "please"\n  second line');
    const missing = site(['inquiries', 'show', 'nope', '--data-dir', DATA]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no inquiry with id "nope"/);
  });

  it('exports CSV quoted and safe against formula injection', () => {
    const r = site(['inquiries', 'export', '--format', 'csv', '--data-dir', DATA]);
    expect(r.status).toBe(0);
    const rows = r.stdout.split('\r\n');
    expect(rows[0].startsWith('"id","receivedAt","type","name","email"')).toBe(true);
    expect(rows[1]).toContain(`"${ids[0]}","2026-01-01T10:00:00.000Z","quote","'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(rows[1]).toContain(`"'+cmd|/c calc"`);
    expect(r.stdout).toContain('"Quote, ""please""\nsecond line"');
    expect(r.stdout).toContain(`"'+49 30 1234567"`);
    expect(r.stdout).not.toContain('Spam Bot');
  });

  it('exports JSON to a file with --out', () => {
    const out = join(box.root, 'export.json');
    const r = site(['inquiries', 'export', '--format', 'json', '--out', out, '--all', '--data-dir', DATA]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('3 inquiries written to');
    const records = JSON.parse(readFileSync(out, 'utf8')) as Array<{ id: string; name: string }>;
    expect(records.map((x) => x.id)).toEqual(ids);
    expect(records[1].name).toBe('Bob \u001b[31mRed');
  });

  it('explains a missing store and a bad format with exit code 2', () => {
    const missing = site(['inquiries', '--data-dir', 'no-such-dir']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no inquiry store at .*no-such-dir.*created by `site serve --data-dir no-such-dir`/);
    const format = site(['inquiries', 'export', '--format', 'xlsx', '--data-dir', DATA]);
    expect(format.status).toBe(2);
    expect(format.stderr).toMatch(/expected csv or json/);
  });
});
