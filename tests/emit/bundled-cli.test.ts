/**
 * `bin/site` runs the CLI's bundle (build/bundle/, scripts/bundle-cli.ts),
 * where the render module and the render worker are entries of their own.
 * A page's reads are recorded only when the module that records them and the
 * templates that make them are one instance: were they two, an edit would
 * leave the pages that show it stale. Here the shipped catalogue is built
 * through the bundle, its render workers recording every page, then edited;
 * each incremental build renders what the edit touches and gives the bytes
 * of a clean build.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { fileDigests, requireCompiled, ROOT, site, workDir } from './helpers.js';

interface BuildJson {
  ok: boolean;
  pages: number;
  rendered: number;
}

describe('the CLI bundle', () => {
  beforeAll(() => requireCompiled());

  it('records what each page reads: an edit renders the pages that show it, to the bytes of a clean build', async () => {
    const work = workDir();
    const data = path.join(work, 'data');
    cpSync(path.join(ROOT, 'data'), data, { recursive: true });
    const env = { SITE_CACHE_DIR: path.join(work, 'cache') };
    const build = async (out: string, extra: string[] = []): Promise<BuildJson> => {
      const run = await site(['build', '--data-dir', data, '--out', out, '--reports', `${out}-reports`, '--json', ...extra], { env });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as BuildJson;
    };
    const dist = path.join(work, 'dist');
    const first = await build(dist);
    expect(first.rendered).toBeGreaterThan(1000);

    const edit = (dir: string, change: (entity: Record<string, unknown>) => void): string => {
      const file = path.join(data, dir, readdirSync(path.join(data, dir)).sort()[3]);
      const entity = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      change(entity);
      writeFileSync(file, `${JSON.stringify(entity, null, 2)}\n`);
      return file;
    };
    const steps: Array<[string, () => string, (rendered: number) => void]> = [
      [
        "an article's body",
        () => edit('articles', (a) => (a.body as unknown[]).unshift({ type: 'paragraph', text: 'Stored cool and dry.' })),
        (rendered) => expect(rendered).toBe(1),
      ],
      [
        "a product's name",
        () => edit('products', (p) => (p.name = `${p.name as string} Premium`)),
        // Its page and the lists and cards that show it: more than one page, far from all.
        (rendered) => {
          expect(rendered).toBeGreaterThan(1);
          expect(rendered).toBeLessThan(200);
        },
      ],
    ];
    for (const [what, change, expectRendered] of steps) {
      const file = change();
      const incremental = await build(dist);
      expect(incremental.ok, `${what} (${file})`).toBe(true);
      expectRendered(incremental.rendered);
      const clean = path.join(work, `clean-${steps.findIndex((s) => s[0] === what)}`);
      await build(clean, ['--no-cache']);
      expect(fileDigests(dist), what).toEqual(fileDigests(clean));
    }
  });
});
