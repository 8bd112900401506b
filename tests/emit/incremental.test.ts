/**
 * Incremental builds are correct by construction, and this proves it: random
 * sequences of edits to a copy of the shipped catalogue (a body, a name, a
 * category membership, a route added, moved or removed, site.json, a
 * template), each followed by an incremental build and a clean `--no-cache`
 * build into a new folder, whose outputs must be the same bytes. A broken
 * edit fails the build and leaves the output as it was.
 * SITE_PROPERTY_SEED=<n> replays one sequence.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../scripts/catalogue/util.js';
import { fileDigests as digests, ROOT, requireCompiled, snapshot } from './helpers.js';

interface BuildOutcome {
  ok: boolean;
  rendered: number;
  reused: number;
  pages: number;
  checkFiles: { validated: number; reused: number; read: number };
  diagnostics: Array<{ code: string; file: string; message: string }>;
}

function buildJson(options: Record<string, unknown>, cacheDir: string): Promise<BuildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'tests/emit/build-json.mjs'), JSON.stringify(options)], {
      env: { ...process.env, SITE_CACHE_DIR: cacheDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(out) as BuildOutcome);
      } catch {
        reject(new Error(`build printed no result: ${out}\n${err}`));
      }
    });
  });
}

type Json = Record<string, unknown> & { [k: string]: any };
interface Route {
  path: string;
  screen: string;
  nodeid: string;
  [k: string]: unknown;
}

class Catalogue {
  constructor(
    readonly dir: string,
    private readonly rand: () => number,
  ) {}
  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }
  files(kind: string): string[] {
    return readdirSync(path.join(this.dir, kind))
      .filter((f) => f.endsWith('.json'))
      .sort();
  }
  read(file: string): Json {
    return JSON.parse(readFileSync(path.join(this.dir, file), 'utf8')) as Json;
  }
  write(file: string, value: unknown): void {
    writeFileSync(path.join(this.dir, file), JSON.stringify(value, null, 2) + '\n');
  }
  routes(): Route[] {
    return this.read('routes.json') as unknown as Route[];
  }
  /** An entity file of `kind` whose detail route exists, with that route. */
  withRoute(kind: string, screen: string): { file: string; entity: Json; route: Route } {
    const routes = this.routes();
    for (;;) {
      const file = `${kind}/${this.pick(this.files(kind))}`;
      const entity = this.read(file);
      const route = routes.find((r) => r.screen === screen && r.nodeid === entity.id);
      if (route !== undefined) return { file, entity, route };
    }
  }
}

const hex = (rand: () => number) => Array.from({ length: 32 }, () => Math.floor(rand() * 16).toString(16)).join('');

/** Each edit changes the catalogue and says what it did; `rendered` bounds the pages an incremental build may render for it. */
const EDITS: Record<string, (c: Catalogue, step: number, rand: () => number) => { what: string; rendered?: number; everywhere?: true }> = {
  nothing() {
    return { what: 'nothing changed', rendered: 0 };
  },
  articleBody(c, step) {
    const { file, entity } = c.withRoute('articles', 'article');
    (entity.body as Json[]).unshift({ type: 'paragraph', text: `Edited in step ${step}: storage & handling <notes>.` });
    c.write(file, entity);
    // The article's own page: its body is shown nowhere else.
    return { what: `body of ${file}`, rendered: 1 };
  },
  articleHeadline(c, step) {
    const { file, entity } = c.withRoute('articles', 'article');
    entity.headline = `${entity.headline} (revised ${step})`;
    c.write(file, entity);
    return { what: `headline of ${file}`, rendered: 40 };
  },
  productName(c, step) {
    const { file, entity } = c.withRoute('products', 'product');
    entity.name = `${entity.name} Grade ${step}`;
    c.write(file, entity);
    return { what: `name of ${file}` };
  },
  productListing(c) {
    const { file, entity } = c.withRoute('products', 'product');
    const categories = c.files('categories').map((f) => c.read(`categories/${f}`));
    const other = c.pick(categories.filter((k) => !k.all && k.id !== entity.category));
    const listed = entity.listedIn as string[];
    entity.listedIn = listed.includes(other.id) ? listed.filter((id) => id !== other.id) : [...listed, other.id];
    c.write(file, entity);
    return { what: `category ${other.id} toggled in listedIn of ${file}` };
  },
  siteConfig(c, step) {
    const site = c.read('site.json');
    site.contact.phone = `+86 29 8000 ${String(1000 + step)}`;
    c.write('site.json', site);
    // The phone is in every page's header and footer.
    return { what: 'contact phone in site.json', everywhere: true };
  },
  routeMoved(c, step) {
    const routes = c.routes();
    const { entity } = c.withRoute('news', 'news-detail');
    const route = routes.find((r) => r.screen === 'news-detail' && r.nodeid === entity.id)!;
    const from = route.path;
    route.path = `/news/moved-${step}-${entity.slug as string}`;
    entity.slug = route.path.slice('/news/'.length);
    c.write('routes.json', routes);
    c.write(`news/${c.files('news').find((f) => c.read(`news/${f}`).id === entity.id)!}`, entity);
    return { what: `news route ${from} moved to ${route.path}` };
  },
  routeMeta(c, step) {
    // The same path, so the same output file: only the route's own value tells the page to render again.
    const routes = c.routes();
    const { route } = c.withRoute('articles', 'article');
    const declared = routes.find((r) => r.path === route.path)!;
    const meta = declared.meta as { description: string };
    declared.meta = { ...meta, description: `${meta.description} Revised in step ${step}.` };
    c.write('routes.json', routes);
    return { what: `meta description of the route ${route.path}` };
  },
  routeRemoved(c) {
    const routes = c.routes();
    const { file, entity } = c.withRoute('news', 'news-detail');
    unlinkSync(path.join(c.dir, file));
    c.write(
      'routes.json',
      routes.filter((r) => !(r.screen === 'news-detail' && r.nodeid === entity.id)),
    );
    return { what: `news item ${file} and its route removed` };
  },
  routeAdded(c, step, rand) {
    const routes = c.routes();
    const { entity, route } = c.withRoute('news', 'news-detail');
    const id = hex(rand);
    const slug = `added-in-step-${step}`;
    c.write(`news/${slug}.json`, { ...entity, id, slug, title: `Added in step ${step}`, date: '2026-11-0' + ((step % 9) + 1) });
    routes.push({ ...route, path: `/news/${slug}`, nodeid: id, type: id });
    c.write('routes.json', routes);
    return { what: `news item ${slug} and its route added` };
  },
};

describe('incremental builds', () => {
  beforeAll(() => requireCompiled());

  it('after every edit of a random sequence, the output is the bytes of a clean --no-cache build', async () => {
    const seed = Number(process.env.SITE_PROPERTY_SEED ?? 20261126);
    const rand = mulberry32(seed);
    const work = mkdtempSync(path.join(tmpdir(), 'site-incremental-'));
    const data = path.join(work, 'data');
    cpSync(path.join(ROOT, 'data'), data, { recursive: true });
    const cache = path.join(work, 'cache');
    const out = path.join(work, 'dist');
    const reports = path.join(work, 'reports');
    const catalogue = new Catalogue(data, rand);
    // A template edit: a render module of the test's own whose code changes between builds.
    const template = path.join(work, 'render.mjs');
    const renderIndex = pathToFileURL(path.join(ROOT, 'build/src/render/index.js')).href;
    const writeTemplate = (version: number) =>
      writeFileSync(
        template,
        `export * from ${JSON.stringify(renderIndex)};\nimport { renderRouteParts as real } from ${JSON.stringify(renderIndex)};\n` +
          `export function renderRouteParts(model, route) {\n  const d = real(model, route);\n  const last = d.parts.length - 1;\n` +
          `  return { ...d, parts: d.parts.map((p, i) => (i === last ? p.replace('</body>', '<!-- template ${version} --></body>') : p)) };\n}\n`,
      );
    writeTemplate(0);
    const renderModule = pathToFileURL(template).href;
    let builds = 0;
    // Two builds in three take stock of their spare in a thread beside the selection (the second of two in a row
    // with the last one's task, from the moment its check finds the data changed) and have the search thread make
    // the index's layout, as a large catalogue's do.
    const incremental = () => {
      const beside = ++builds % 3 === 0 ? undefined : 0;
      return buildJson({ dataDir: data, outDir: out, reportsDir: reports, renderModule, stockBeside: beside, layoutBeside: beside }, cache);
    };
    const clean = async (step: number) => {
      const dir = path.join(work, `clean-${step}`);
      const result = await buildJson({ dataDir: data, outDir: dir, reportsDir: path.join(work, `clean-reports-${step}`), renderModule, cache: false }, cache);
      return { result, dir };
    };

    const first = await incremental();
    expect(first.ok, JSON.stringify(first.diagnostics)).toBe(true);
    const total = first.pages - 2; // route pages (404 and 500 are not routes)
    expect(first.rendered).toBe(total);

    const kinds = Object.keys(EDITS);
    const order = [...kinds, 'template', 'broken'];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let templateVersion = 0;
    for (const [step, kind] of order.entries()) {
      const context = `seed ${seed}, step ${step}: ${kind}`;
      if (kind === 'broken') {
        // A failed incremental build leaves the output as it was, and the next one goes on from it.
        const { file } = catalogue.withRoute('articles', 'article');
        const before = readFileSync(path.join(data, file));
        const output = digests(out);
        writeFileSync(path.join(data, file), '{ "id": ');
        const failed = await incremental();
        expect(failed.ok, context).toBe(false);
        expect(digests(out), context).toEqual(output);
        writeFileSync(path.join(data, file), before);
        continue;
      }
      let bound: number | undefined;
      let what = 'template code changed';
      let everywhere: boolean | undefined = true;
      if (kind === 'template') writeTemplate(++templateVersion);
      else ({ what, rendered: bound, everywhere } = EDITS[kind](catalogue, step, rand));
      const before = kind === 'nothing' ? digests(out) : undefined;
      const built = await incremental();
      expect(built.ok, `${context} (${what}): ${JSON.stringify(built.diagnostics)}`).toBe(true);
      if (before !== undefined) {
        // Nothing changed: the output is the same bytes as before, and nothing was rendered or validated again.
        expect(digests(out), context).toEqual(before);
        expect(built.rendered, context).toBe(0);
        expect(built.checkFiles.validated, context).toBe(0);
        continue;
      }
      const { result, dir } = await clean(step);
      expect(result.ok, context).toBe(true);
      expect(result.rendered, context).toBe(result.pages - 2);
      const got = snapshot(out);
      const want = snapshot(dir);
      expect([...got.keys()], `${context} (${what}): the same files`).toEqual([...want.keys()]);
      const differing = [...want].filter(([f, bytes]) => !got.get(f)!.equals(bytes)).map(([f]) => f);
      expect(differing, `${context} (${what}): the same bytes`).toEqual([]);
      expect(built.rendered + built.reused, context).toBe(result.pages - 2);
      if (everywhere === true) expect(built.rendered, `${context} (${what}): every page shows it`).toBe(result.pages - 2);
      else expect(built.rendered, `${context} (${what}): renders only what the edit touches`).toBeLessThan((result.pages - 2) / 4);
      if (bound !== undefined) expect(built.rendered, `${context} (${what})`).toBeLessThanOrEqual(bound);
      // The check is incremental too: an edited article is validated again, with at most the file the step before
      // changed (a broken file put back is new bytes to the check's cache), not the catalogue's 1,300.
      if (kind === 'articleBody' || kind === 'articleHeadline') {
        expect(built.checkFiles.validated, context).toBeGreaterThanOrEqual(1);
        expect(built.checkFiles.validated, context).toBeLessThanOrEqual(2);
      }
      rmSync(dir, { recursive: true, force: true });
    }
    rmSync(work, { recursive: true, force: true });
  }, 1_500_000);
});
