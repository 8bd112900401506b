/**
 * Routes the check once let through but the build or a host could not
 * serve: `site build` refuses them at the check, with an error naming the
 * route and why, and leaves dist/ as it was (no stack trace, no page written).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { build, requireCompiled, SMALL, snapshot, workDir } from './helpers.js';

/** A copy of the small fixture with the route /about-us at `to`. */
function aboutAt(to: string): string {
  const dir = path.join(workDir(), 'data');
  cpSync(SMALL, dir, { recursive: true });
  const file = path.join(dir, 'routes.json');
  const routes = JSON.parse(readFileSync(file, 'utf8')) as Array<{ path: string }>;
  routes.find((r) => r.path === '/about-us')!.path = to;
  writeFileSync(file, JSON.stringify(routes, null, 2));
  return dir;
}

describe('site build refuses routes it or a host cannot serve', () => {
  let work: string;
  let before: Map<string, Buffer>;
  beforeAll(async () => {
    requireCompiled();
    work = workDir();
    expect((await build(work)).code).toBe(0);
    before = snapshot(path.join(work, 'dist'));
  }, 120_000);

  test.each([
    ['/_headers', 'check/path-reserved', /Route path "\/_headers" would clash with \/_headers, the file of response headers/],
    ['/api/inquiry', 'check/path-reserved', /Route path "\/api\/inquiry" is the inquiry endpoint \(inquiryEndpoint in \S*site\.json\)/],
    ['/.well-known/about', 'check/path-dot-segment', /Route path "\/\.well-known\/about" has a segment starting with "\."/],
  ])(
    '%s',
    async (route, code, message) => {
      const run = await build(work, [], undefined, aboutAt(route));
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain(code);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/^\s+at /m); // a diagnostic, not a crash
      expect(snapshot(path.join(work, 'dist'))).toEqual(before);
    },
    120_000,
  );
});
