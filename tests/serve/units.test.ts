import { describe, expect, it } from 'vitest';
import { createCommitQueue } from '../../src/serve/commit-queue.js';
import { csvCell } from '../../src/serve/export.js';
import { isNotModified, negotiateEncoding, parseRange } from '../../src/serve/http.js';
import { filledTooFast, readSubmission } from '../../src/serve/inquiry.js';
import { backoffDelay } from '../../src/serve/notify.js';
import { parseTarget, safeRoutePath } from '../../src/serve/paths.js';
import { createRateLimiter, rateKey } from '../../src/serve/rate-limit.js';
import { contentSecurityPolicy, parseCspOptions } from '../../src/serve/security.js';
import type { InquiryRecord, InquiryStore, NewInquiry } from '../../src/serve/store.js';

const v = { etag: '"abc"', mtimeMs: Date.UTC(2026, 0, 1, 12, 0, 0, 500) };

describe('parseRange', () => {
  it.each([
    ['bytes=0-0', { kind: 'partial', start: 0, end: 0 }],
    ['bytes=0-99', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=10-', { kind: 'partial', start: 10, end: 99 }],
    ['bytes=-10', { kind: 'partial', start: 90, end: 99 }],
    ['bytes=-1000', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=50-5000', { kind: 'partial', start: 50, end: 99 }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=9-3', { kind: 'full' }],
    ['bytes=0-1,4-5', { kind: 'full' }],
    ['lines=0-1', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
  ])('%s of 100 bytes', (range, expected) => expect(parseRange(range, 100, undefined, v)).toEqual(expected));

  it('honours If-Range only for a strong matching ETag or the exact date', () => {
    expect(parseRange('bytes=0-1', 100, '"abc"', v).kind).toBe('partial');
    expect(parseRange('bytes=0-1', 100, 'W/"abc"', v).kind).toBe('full');
    expect(parseRange('bytes=0-1', 100, new Date(v.mtimeMs).toUTCString(), v).kind).toBe('partial');
    expect(parseRange('bytes=0-1', 100, new Date(v.mtimeMs - 5000).toUTCString(), v).kind).toBe('full');
  });
});

describe('conditional requests and negotiation', () => {
  it('compares If-None-Match weakly and lets it win over If-Modified-Since', () => {
    expect(isNotModified({ 'if-none-match': 'W/"abc"' }, v)).toBe(true);
    expect(isNotModified({ 'if-none-match': '*' }, v)).toBe(true);
    expect(isNotModified({ 'if-none-match': '"x"', 'if-modified-since': new Date(v.mtimeMs + 60_000).toUTCString() }, v)).toBe(false);
    // HTTP dates have whole seconds: the file's 500 ms do not make it newer than its own Last-Modified.
    expect(isNotModified({ 'if-modified-since': new Date(v.mtimeMs).toUTCString() }, v)).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'garbage' }, v)).toBe(false);
  });

  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip;q=0.5', 'gzip'],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['identity', null],
    ['', null],
  ])('Accept-Encoding %j picks %s', (header, expected) => expect(negotiateEncoding(header)).toBe(expected));
});

describe('paths', () => {
  it('decodes clean paths and keeps the query raw', () => {
    expect(parseTarget('/monomer/bulk-curcumin?utm=%20x')).toEqual({ ok: true, path: '/monomer/bulk-curcumin', search: '?utm=%20x' });
    expect(parseTarget('/caf%C3%A9')).toEqual({ ok: true, path: '/café', search: '' });
    expect(parseTarget('/monomer/')).toMatchObject({ ok: true, path: '/monomer/' });
  });

  it.each(['/a/../b', '/%2e%2e/b', '/a%2fb', '/a%5cb', '/a\\b', '/a%00', '/%c0%ae', '/%252e', '//host', 'http://x/', '*', ''])('refuses %j', (t) =>
    expect(parseTarget(t).ok).toBe(false),
  );

  it('accepts only route-like page fields', () => {
    expect(safeRoutePath('/monomer/bulk-curcumin')).toBe('/monomer/bulk-curcumin');
    for (const bad of ['monomer', '/../x', '/a?b=1', '/.git', 'javascript:alert(1)', '/a b', '/' + 'a'.repeat(400)]) expect(safeRoutePath(bad), bad).toBeNull();
  });
});

describe('inquiry pieces', () => {
  it('counts only a fill time in [0, minimum) as too fast', () => {
    expect(filledTooFast(null, 10_000, 3000)).toBe(false);
    expect(filledTooFast(9_000, 10_000, 3000)).toBe(true);
    expect(filledTooFast(7_000, 10_000, 3000)).toBe(false);
    expect(filledTooFast(12_000, 10_000, 3000)).toBe(false);
  });

  it('reads only known fields, as text, without control characters', () => {
    const { submission, errors } = readSubmission({ name: 'A\u0000da', email: ['x'], extra: 'dropped', page: '/x/../y', _started: 123, website: ' ' });
    expect(submission.values.name).toBe('Ada');
    expect(submission.values).not.toHaveProperty('extra');
    expect(errors.email).toBe('Expected text.');
    expect(submission.page).toBe('');
    expect(submission.startedMs).toBe(123);
    expect(submission.honeypot).toBe('');
  });

  it('limits per key in a sliding window and says when to retry', () => {
    const limiter = createRateLimiter(2, 60_000);
    expect(limiter.take('a', 0).ok).toBe(true);
    expect(limiter.take('a', 10_000).ok).toBe(true);
    expect(limiter.take('a', 20_000)).toEqual({ ok: false, retryAfterSeconds: 40 });
    expect(limiter.take('b', 20_000).ok).toBe(true);
    expect(limiter.take('a', 60_001).ok).toBe(true);
    expect(createRateLimiter(0).take('a').ok).toBe(true);
  });

  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('limits %s as %s', (ip, key) => expect(rateKey(ip)).toBe(key));

  it('backs off exponentially up to a cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoffDelay(n, 1000, 5000))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});

describe('group commit', () => {
  const fakeStore = (failOn?: string) => {
    const batches: number[] = [];
    const add = (i: NewInquiry): InquiryRecord => {
      if (i.inquiry.name === failOn) throw new Error('constraint');
      return { id: i.inquiry.name } as InquiryRecord;
    };
    const store = {
      add,
      addMany(inputs: readonly NewInquiry[]) {
        batches.push(inputs.length);
        return inputs.map(add);
      },
    } as unknown as InquiryStore;
    return { store, batches };
  };
  const input = (name: string) => ({ inquiry: { name }, page: '', userAgent: '', ip: '', spam: null, notify: false }) as unknown as NewInquiry;

  it('commits inquiries of one event-loop turn in one transaction', async () => {
    const { store, batches } = fakeStore();
    const commit = createCommitQueue(store);
    const ids = await Promise.all(['a', 'b', 'c'].map((n) => commit(input(n)).then((r) => r.id)));
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(batches).toEqual([3]);
    await commit(input('d'));
    expect(batches).toEqual([3, 1]);
  });

  it('fails only the bad inquiry when a batch rolls back', async () => {
    const { store } = fakeStore('bad');
    const commit = createCommitQueue(store);
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((n) => commit(input(n))));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('exports and CSP', () => {
  it.each([
    ['=1+1', `"'=1+1"`],
    ['+49 30', `"'+49 30"`],
    ['-5', `"'-5"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\t=1', `"'\t=1"`],
    ['say "hi"', '"say ""hi"""'],
    ['a,b\nc', '"a,b\nc"'],
    ['', '""'],
  ])('csvCell(%j) = %s', (input, expected) => expect(csvCell(input)).toBe(expected));

  it('adds configured third-party sources and refuses anything but a source', () => {
    const { extra, errors } = parseCspOptions([
      'script-src:https://www.googletagmanager.com',
      "script-src:'unsafe-inline'",
      'report-uri:x',
      'img-src:https://a.example;script-src',
    ]);
    expect(extra).toEqual({ 'script-src': ['https://www.googletagmanager.com'] });
    expect(errors).toHaveLength(3);
    expect(contentSecurityPolicy({ scripts: [], styles: [], styleAttributes: [] }, extra)).toContain("script-src 'self' https://www.googletagmanager.com;");
    expect(contentSecurityPolicy({ scripts: [], styles: [], styleAttributes: ["'sha256-x'"] })).toContain("style-src 'self' 'unsafe-hashes' 'sha256-x'");
  });
});
