import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import * as cheerio from 'cheerio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, type ServeOptions, startServer } from '../../src/serve/server.js';
import { type Sandbox, VALID, form, request, sandbox } from './helpers.js';

let box: Sandbox;
const servers: RunningServer[] = [];

beforeAll(() => {
  box = sandbox();
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
afterAll(() => box?.cleanup());

let n = 0;
async function serve(extra: Partial<ServeOptions> = {}): Promise<RunningServer> {
  const s = await startServer({
    dir: box.dist,
    dataDir: `${box.dataDir}-${++n}`,
    port: 0,
    watch: false,
    rateLimit: 1000,
    log: () => undefined,
    ...extra,
  });
  servers.push(s);
  return s;
}

const postJson = (s: RunningServer, body: unknown, headers: Record<string, string> = {}) =>
  request(s.url, '/api/inquiry', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const postForm = (s: RunningServer, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  request(s.url, '/api/inquiry', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html,application/xhtml+xml', ...headers },
    body: form(fields),
  });

const longAgo = () => String(Date.now() - 60_000);

describe('JSON submissions', () => {
  it('stores a valid inquiry before answering 201 {id}', async () => {
    const s = await serve();
    const r = await postJson(s, { ...VALID, _started: longAgo(), website: '' }, { 'user-agent': 'BuyerBrowser/1.0' });
    expect(r.status).toBe(201);
    expect(r.headers['content-type']).toContain('application/json');
    const { id } = JSON.parse(r.text) as { id: string };
    const stored = s.store.get(id)!;
    expect(stored).toMatchObject({
      name: VALID.name,
      email: VALID.email,
      product: VALID.product,
      type: 'quote',
      page: '/monomer/bulk-curcumin',
      userAgent: 'BuyerBrowser/1.0',
      spam: null,
      notification: 'none',
    });
    expect(stored.ipHash).toMatch(/^[0-9a-f]{32}$/);
    expect(stored.ipHash).not.toContain('127.0.0.1');
    expect(Date.parse(stored.receivedAt)).toBeGreaterThan(Date.now() - 10_000);
    // Personal data: only the serving user may read the store.
    expect(statSync(s.store.file).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(s.store.file)).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['name', { name: 'A' }, 'Please enter your name.'],
    ['name', { name: '' }, 'Please enter your name.'],
    ['email', { email: 'not-an-email' }, 'Please enter a valid e-mail address, like name@company.com.'],
    ['email', { email: 'a@b' }, 'Please enter a valid e-mail address, like name@company.com.'],
    ['phone', { phone: 'call me maybe' }, 'Please enter a phone number with digits only, optionally starting with +.'],
    ['type', { type: 'free-money' }, 'Please choose what you would like to ask for.'],
    ['type', { type: '' }, 'Please choose what you would like to ask for.'],
    ['message', { message: 'short' }, 'Please tell us a little more (at least 10 characters).'],
    ['message', { message: 'x'.repeat(5001) }, 'Please keep the message under 5000 characters.'],
    ['company', { company: 'c'.repeat(151) }, 'Please keep the company name under 150 characters.'],
    ['quantity', { quantity: 'q'.repeat(61) }, 'Please keep the quantity under 60 characters.'],
    ['product', { product: 42 }, 'Expected text.'],
  ])('refuses a bad %s with 400 and one message for it', async (field, patch, message) => {
    const s = await serve();
    const r = await postJson(s, { ...VALID, ...patch });
    expect(r.status).toBe(400);
    const { errors } = JSON.parse(r.text) as { errors: Record<string, string> };
    expect(errors[field]).toBe(message);
    expect(s.store.count({ includeSpam: true })).toBe(0);
  });

  it('reports every bad field at once', async () => {
    const s = await serve();
    const r = await postJson(s, { type: 'quote' });
    expect(Object.keys((JSON.parse(r.text) as { errors: object }).errors).sort()).toEqual(['email', 'message', 'name']);
  });

  it('refuses invalid JSON, a non-object and an unknown content type', async () => {
    const s = await serve();
    expect((await postJson(s, '{"name":')).status).toBe(400);
    expect((await postJson(s, '["a"]')).status).toBe(400);
    const r = await request(s.url, '/api/inquiry', { method: 'POST', headers: { 'content-type': 'text/plain', accept: 'application/json' }, body: 'hi' });
    expect(r.status).toBe(415);
  });

  it('strips control characters and stores markup as inert text', async () => {
    const s = await serve();
    const r = await postJson(s, { ...VALID, name: 'Ada\u0000\u001b[31m <b>Buyer</b>', message: 'Line one\u0007\nLine two <script>alert(1)</script>' });
    const stored = s.store.get((JSON.parse(r.text) as { id: string }).id)!;
    expect(stored.name).toBe('Ada[31m <b>Buyer</b>');
    expect(stored.message).toBe('Line one\nLine two <script>alert(1)</script>');
  });

  it('refuses a form sent faster than a person can fill it in', async () => {
    const s = await serve();
    const r = await postJson(s, { ...VALID, _started: String(Date.now() - 500) });
    expect(r.status).toBe(400);
    expect((JSON.parse(r.text) as { errors: { _form: string } }).errors._form).toMatch(/quicker than anyone/);
    // A client clock running ahead proves nothing: accepted.
    expect((await postJson(s, { ...VALID, _started: String(Date.now() + 3_600_000) })).status).toBe(201);
    expect((await postJson(s, { ...VALID, _started: Date.now() - 5000 })).status).toBe(201);
  });

  it('answers a filled honeypot like a success but flags it as spam', async () => {
    const s = await serve();
    const r = await postJson(s, { ...VALID, website: 'http://spam.example' });
    expect(r.status).toBe(201);
    const stored = s.store.get((JSON.parse(r.text) as { id: string }).id)!;
    expect(stored.spam).toBe('honeypot');
    expect(s.store.list()).toHaveLength(0);
    expect(s.store.list({ includeSpam: true })).toHaveLength(1);
  });

  it('limits inquiries per client and minute with 429 and Retry-After', async () => {
    const s = await serve({ rateLimit: 3 });
    for (let i = 0; i < 3; i++) expect((await postJson(s, VALID)).status).toBe(201);
    const r = await postJson(s, VALID);
    expect(r.status).toBe(429);
    const retry = Number(r.headers['retry-after']);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    expect(s.store.count()).toBe(3);
    // Invalid submissions do not use up the buyer's allowance, and do not pass either.
    expect((await postJson(s, { ...VALID, email: 'x' })).status).toBe(400);
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy', async () => {
    const trusting = await serve({ rateLimit: 1, trustProxy: true });
    expect((await postJson(trusting, VALID, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(201);
    expect((await postJson(trusting, VALID, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(201);
    expect((await postJson(trusting, VALID, { 'x-forwarded-for': '198.51.100.9, 203.0.113.2' })).status).toBe(429);
    const direct = await serve({ rateLimit: 1 });
    expect((await postJson(direct, VALID, { 'x-forwarded-for': '203.0.113.1' })).status).toBe(201);
    expect((await postJson(direct, VALID, { 'x-forwarded-for': '203.0.113.2' })).status).toBe(429);
  });

  it('refuses a form posted from another website, accepts its own and privacy-stripped origins', async () => {
    const s = await serve();
    const host = new URL(s.url).host;
    const foreign = await postForm(s, VALID, { origin: 'https://spam-relay.example' });
    expect(foreign.status).toBe(403);
    expect(cheerio.load(foreign.text)('[data-form-status]').first().text()).toBe('Inquiries are accepted only from the forms of this website.');
    expect((await postJson(s, VALID, { origin: 'https://spam-relay.example' })).status).toBe(403);
    expect((await postForm(s, VALID, { origin: `http://${host}` })).status).toBe(303);
    expect((await postForm(s, VALID, { origin: 'null' })).status).toBe(303);
    expect(s.store.count()).toBe(2);
    // Behind a trusted proxy the public host is the forwarded one.
    const proxied = await serve({ trustProxy: true });
    expect((await postJson(proxied, VALID, { origin: 'https://www.supplier.example', 'x-forwarded-host': 'www.supplier.example' })).status).toBe(201);
  });

  it('refuses bodies over the limit with 413, declared or streamed', async () => {
    const s = await serve({ bodyLimit: 4096 });
    const big = JSON.stringify({ ...VALID, message: 'm'.repeat(8000) });
    const declared = await postJson(s, big);
    expect(declared.status).toBe(413);
    expect((JSON.parse(declared.text) as { errors: { _form: string } }).errors._form).toMatch(/too large/);
    const chunked = await request(s.url, '/api/inquiry', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'transfer-encoding': 'chunked' },
      body: big,
    });
    expect(chunked.status).toBe(413);
    expect(s.store.count({ includeSpam: true })).toBe(0);
  });
});

describe('form-encoded submissions (no JavaScript)', () => {
  it('redirects to /thanks with 303 after storing', async () => {
    const s = await serve();
    const r = await postForm(s, { ...VALID, _started: '', website: '' });
    expect(r.status).toBe(303);
    expect(r.headers.location).toBe('/thanks');
    expect(s.store.list()[0]).toMatchObject({ email: VALID.email, page: '/monomer/bulk-curcumin' });
  });

  it('re-renders the form page with the values and each field message, escaped', async () => {
    const s = await serve();
    const r = await postForm(s, {
      ...VALID,
      email: 'nope',
      name: '"><script>alert(1)</script>',
      message: 'hi </textarea><img src=x onerror=alert(1)>',
      type: 'free-sample',
    });
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toContain('text/html');
    const $ = cheerio.load(r.text);
    // The values are data: no element came out of them.
    expect($('script').filter((_, el) => $(el).text().includes('alert')).length).toBe(0);
    expect($('img').length).toBe(0);
    expect(r.text).toContain('value="&quot;>');
    expect(r.text).toContain('hi &lt;/textarea&gt;&lt;img');
    expect($('title').text()).toMatch(/^Error: Bulk Curcumin/);
    const f = $('form[data-inquiry-form]').first();
    expect(f.find('[name=name]').attr('value')).toBe('"><script>alert(1)</script>');
    expect(f.find('[name=email]').attr('value')).toBe('nope');
    expect(f.find('[name=email]').attr('aria-invalid')).toBe('true');
    expect(f.find('[name=email]').attr('aria-describedby')).toBe('inq-product-email-error');
    expect(f.find('[name=email]').is('[autofocus]')).toBe(true);
    expect(f.find('[name=name]').is('[autofocus]')).toBe(false);
    expect(f.find('textarea[name=message]').text()).toBe('hi </textarea><img src=x onerror=alert(1)>');
    expect(f.find('[name=type] option[selected]').attr('value')).toBe('free-sample');
    const emailError = f.find('[data-error-for=email]');
    expect(emailError.text()).toBe('Please enter a valid e-mail address, like name@company.com.');
    expect(emailError.attr('hidden')).toBeUndefined();
    expect(f.find('[data-error-for=name]').is('[hidden]')).toBe(true);
    expect(f.find('[data-form-status]').text()).toMatch(/correct the marked fields/);
    // The page keeps a CSP the re-rendered HTML passes.
    expect(String(r.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(s.store.count({ includeSpam: true })).toBe(0);
  });

  it('fills the form the buyer used when the page has two and the form names itself', async () => {
    const s = await serve();
    const r = await postForm(s, { ...VALID, email: 'nope', _formid: 'inq-second' });
    const $ = cheerio.load(r.text);
    expect($('#inq-second [name=email]').attr('value')).toBe('nope');
    expect($('#inq-second [data-error-for=email]').text()).toMatch(/valid e-mail/);
    expect($('#inq-product [name=email]').attr('value')).toBeUndefined();
    // An unknown form id falls back to the first form.
    const unknown = cheerio.load((await postForm(s, { ...VALID, email: 'nope', _formid: 'x' })).text);
    expect(unknown('#inq-product [name=email]').attr('value')).toBe('nope');
  });

  it('falls back to the contact page when the page field is not a safe path', async () => {
    const s = await serve();
    for (const page of ['/../../secret.txt', 'https://evil.example/form', '/no-such-page', '/%2e%2e/x']) {
      const r = await postForm(s, { ...VALID, email: 'bad', page });
      expect(r.status, page).toBe(400);
      expect(cheerio.load(r.text)('h1').text(), page).toBe('Contact us');
    }
  });

  it('shows the too-fast, rate-limit and size messages on the page too', async () => {
    const s = await serve({ rateLimit: 1, bodyLimit: 2048 });
    const fast = await postForm(s, { ...VALID, _started: String(Date.now() - 100) });
    expect(fast.status).toBe(400);
    expect(cheerio.load(fast.text)('[data-form-status]').first().text()).toMatch(/quicker than anyone/);
    expect((await postForm(s, VALID)).status).toBe(303);
    const limited = await postForm(s, VALID);
    expect(limited.status).toBe(429);
    expect(cheerio.load(limited.text)('[data-form-status]').first().text()).toMatch(/Too many inquiries/);
    const big = await postForm(s, { ...VALID, message: 'm'.repeat(4000) });
    expect(big.status).toBe(413);
  });
});

describe('e-mail notification', () => {
  it('retries a failed e-mail with backoff and never loses the inquiry', async () => {
    const sent: Array<{ subject: string; text: string; replyTo: string }> = [];
    let failures = 2;
    const mailer = {
      async sendMail(m: { subject: string; text: string; replyTo: string }) {
        if (failures-- > 0) throw new Error('SMTP 421 try later');
        sent.push(m);
      },
    };
    const s = await serve({ mailer, notifyTo: 'sales@supplier.example', notifyBaseDelayMs: 20, notifyPollMs: 10 });
    const r = await postJson(s, { ...VALID, product: 'Curcumin\r\nBcc: victim@example.com' });
    expect(r.status).toBe(201);
    const { id } = JSON.parse(r.text) as { id: string };
    await expect.poll(() => s.store.get(id)?.notification, { timeout: 5000 }).toBe('sent');
    expect(sent).toHaveLength(1);
    expect(sent[0].subject).not.toMatch(/[\r\n]/);
    expect(sent[0].replyTo).toBe(VALID.email);
    expect(sent[0].text).toContain(VALID.message);
    expect(sent[0].text).toContain(`site inquiries show ${id}`);
    expect(s.store.get(id)!.name).toBe(VALID.name);
  });

  it('gives up after the last attempt but keeps the inquiry', async () => {
    let attempts = 0;
    const mailer = { sendMail: async () => Promise.reject(new Error(`no route to host (${++attempts})`)) };
    const s = await serve({ mailer, notifyTo: 'sales@supplier.example', notifyBaseDelayMs: 1, notifyPollMs: 5, notifyMaxAttempts: 3 });
    const { id } = JSON.parse((await postJson(s, VALID)).text) as { id: string };
    await expect.poll(() => s.store.get(id)?.notification, { timeout: 5000 }).toBe('failed');
    expect(attempts).toBe(3);
    expect(s.store.get(id)!.email).toBe(VALID.email);
  });
});

describe('clients that go away', () => {
  it('drops a body cut off half-way without storing or logging an error', async () => {
    const lines: string[] = [];
    const s = await serve({ log: (l) => void lines.push(l) });
    const { connect } = await import('node:net');
    const url = new URL(s.url);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /api/inquiry HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"name":"Ada');
    await new Promise((r) => setTimeout(r, 100));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    expect((await postJson(s, VALID)).status).toBe(201);
    expect(s.store.count({ includeSpam: true })).toBe(1);
    expect(lines).toEqual([]);
  });
});

describe('shutdown', () => {
  it('finishes a request in flight before closing the store', async () => {
    const s = await serve();
    const body = JSON.stringify(VALID);
    const pending = new Promise<number>((resolve, reject) => {
      import('node:http').then(({ request: req }) => {
        const url = new URL(s.url);
        const r = req(
          {
            host: url.hostname,
            port: url.port,
            path: '/api/inquiry',
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        r.on('error', reject);
        // Half the body now, the rest after shutdown began.
        r.write(body.slice(0, 20));
        setTimeout(() => r.end(body.slice(20)), 150);
      }, reject);
    });
    await new Promise((r) => setTimeout(r, 50));
    const closed = s.close();
    expect(await pending).toBe(201);
    await closed;
    servers.splice(servers.indexOf(s), 1);
    expect(() => s.store.count()).toThrow();
  });
});
