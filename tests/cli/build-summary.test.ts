/** `site build`'s one line on stdout: its counts add up to the pages written. */
import { describe, expect, it } from 'vitest';
import { summaryLine } from '../../src/cli/commands/build.js';
import type { BuildResult } from '../../src/emit/types.js';

const result = (over: Partial<BuildResult>): BuildResult => ({
  ok: true,
  diagnostics: [],
  checkCounts: {} as BuildResult['checkCounts'],
  checkFiles: { validated: 0, reused: 0, read: 0 },
  pages: 0,
  unchanged: { pages: 0, byStamp: 0 },
  rendered: 0,
  reused: 0,
  files: 0,
  bytes: 0,
  links: { pages: 0, references: 0, targets: 0, broken: 0, unsafe: 0 },
  errors: 0,
  warnings: 0,
  seconds: 0.5,
  outDir: 'dist',
  timings: {},
  ...over,
});

describe('summaryLine', () => {
  it('counts 404.html and 500.html among the pages rendered, so that rendered and unchanged add up to the pages', () => {
    // One route rendered and 1,466 taken over, of 1,467 routes: 1,469 pages with the two error pages.
    const line = summaryLine(result({ pages: 1469, rendered: 1, reused: 1466 }), 'dist', 'reports');
    expect(line).toContain('1,469 pages (3 rendered, 1,466 unchanged) written to dist in 0.50 s');
  });

  it('says nothing of rendered and unchanged when every page was rendered', () => {
    const line = summaryLine(result({ pages: 1469, rendered: 1467, reused: 0 }), 'dist', 'reports');
    expect(line).toContain('site build: 1,469 pages written to dist in 0.50 s · 0 warnings · links: 0 checked, 0 broken');
  });
});
