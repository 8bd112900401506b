/**
 * A synthetic catalogue of about N routes, made from a real one (the shipped
 * data/ by default): products and articles are copied with new slugs and ids,
 * their detail routes added, and every list gets the pages its new length
 * needs, so that the result passes `site check` like the original.
 *
 *   node build/bench/synthetic.js [--routes 100000] [--from data] [--out bench/out/synthetic-100000]
 *
 * The output is cached: a marker file records what it was made from.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pLimit from 'p-limit';

interface RawRoute {
  path: string;
  screen: string;
  name: string;
  nodeid: string;
  grandId?: string;
  type: string;
  page?: number;
  meta: { title: string; description: string; keywords: string };
}
type Json = Record<string, any>;

const hexId = (seed: string) => createHash('md5').update(seed).digest('hex');
const readJson = async (file: string): Promise<any> => JSON.parse(await readFile(file, 'utf8'));

async function readCollection(dir: string): Promise<Array<{ file: string; json: Json }>> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  return Promise.all(names.map(async (file) => ({ file, json: await readJson(path.join(dir, file)) })));
}

/** A fingerprint of the source catalogue, so a cached synthetic copy is remade when data/ changes. */
async function fingerprint(from: string): Promise<string> {
  const hash = createHash('sha1');
  hash.update(await readFile(path.join(from, 'routes.json')));
  hash.update(await readFile(path.join(from, 'site.json')));
  for (const dir of ['categories', 'products', 'articles', 'news', 'pages']) hash.update((await readdir(path.join(from, dir))).sort().join('\n'));
  return hash.digest('hex');
}

export interface SyntheticResult {
  dir: string;
  routes: number;
  products: number;
  articles: number;
  cached: boolean;
}

export async function makeSynthetic(from: string, out: string, targetRoutes: number): Promise<SyntheticResult> {
  const marker = path.join(out, '.synthetic.json');
  const print = await fingerprint(from);
  if (existsSync(marker)) {
    const m = JSON.parse(readFileSync(marker, 'utf8'));
    if (m.fingerprint === print && m.target === targetRoutes) return { ...m.result, dir: out, cached: true };
  }

  const site = await readJson(path.join(from, 'site.json'));
  const routes: RawRoute[] = await readJson(path.join(from, 'routes.json'));
  const categories = await readCollection(path.join(from, 'categories'));
  const products = await readCollection(path.join(from, 'products'));
  const articles = await readCollection(path.join(from, 'articles'));
  const perPage = site.itemsPerPage as { products: number; articles: number };

  // Lists and how many items each holds, kept current as copies are added.
  const allCategory = categories.find((c) => c.json.all)?.json;
  const listsOf = (p: Json): string[] => [...new Set([...(allCategory ? [allCategory.id] : []), p.category, ...(p.listedIn ?? [])])];
  const listSize = new Map<string, number>();
  for (const { json } of products) for (const id of listsOf(json)) listSize.set(id, (listSize.get(id) ?? 0) + 1);
  const knowledgeId = routes.find((r) => r.screen === 'knowledge')?.nodeid;
  if (knowledgeId !== undefined) listSize.set(knowledgeId, articles.length);
  const pagesOf = (id: string) => Math.ceil((listSize.get(id) ?? 0) / (id === knowledgeId ? perPage.articles : perPage.products));
  let listPages = 0;
  for (const id of listSize.keys()) listPages += pagesOf(id);
  const baseListPages = listPages;

  const detailRoute = new Map(routes.filter((r) => r.screen === 'product' || r.screen === 'article').map((r) => [r.nodeid, r]));
  const sources = [...products.map((e) => ({ kind: 'product' as const, ...e })), ...articles.map((e) => ({ kind: 'article' as const, ...e }))].filter((e) =>
    detailRoute.has(e.json.id),
  );

  // Round-robin over every product and article until the route count reaches the target.
  const copies: Array<{ kind: 'product' | 'article'; json: Json; route: RawRoute; file: string }> = [];
  let total = routes.length;
  for (let round = 1; total < targetRoutes; round++) {
    for (const src of sources) {
      if (total >= targetRoutes) break;
      const json = structuredClone(src.json);
      const slug = `${src.json.slug}-s${round}`;
      json.id = hexId(`${src.kind}:${src.json.id}:${round}`);
      json.slug = slug;
      if (src.kind === 'product') json.name = `${src.json.name} (lot ${round})`;
      else json.headline = `${src.json.headline} (part ${round})`;
      const base = detailRoute.get(src.json.id)!;
      const route: RawRoute = {
        ...base,
        path: `${path.posix.dirname(base.path)}/${slug}`,
        nodeid: json.id,
        type: json.id,
        meta: { ...base.meta, title: base.meta.title === '' ? '' : base.meta.title.replace(/( - [^-]+)?$/, ` (${round})$1`) },
      };
      copies.push({ kind: src.kind, json, route, file: `${slug}.json` });
      total++;
      const lists = src.kind === 'product' ? listsOf(json) : knowledgeId ? [knowledgeId] : [];
      for (const id of lists) {
        const before = pagesOf(id);
        listSize.set(id, (listSize.get(id) ?? 0) + 1);
        const grown = pagesOf(id) - before;
        listPages += grown;
        total += grown;
      }
    }
  }

  // Pages n+1..N of every list that grew, after the list's last declared page.
  const listRoutes = new Map<string, RawRoute[]>();
  for (const r of routes) {
    if (!['products', 'category', 'knowledge'].includes(r.screen)) continue;
    const list = listRoutes.get(r.nodeid) ?? [];
    list.push(r);
    listRoutes.set(r.nodeid, list);
  }
  const extraPages: RawRoute[] = [];
  for (const [id, declared] of listRoutes) {
    const have = Math.max(...declared.map((r) => r.page ?? 1));
    const bare = declared.find((r) => r.page === undefined) ?? declared[0];
    const basePath = bare.page === undefined ? bare.path : bare.path.replace(/\/page-\d+$/, '');
    for (let n = have + 1; n <= pagesOf(id); n++) {
      extraPages.push({
        path: `${basePath}/page-${n}`,
        screen: bare.screen,
        name: id,
        nodeid: id,
        type: id,
        page: n,
        meta: { ...bare.meta, title: `${bare.meta.title} - Page ${n}` },
      });
    }
  }

  // Write beside the target and rename into place, so an interrupted run never leaves a half catalogue.
  const tmp = `${out}.tmp-${process.pid}`;
  await rm(tmp, { recursive: true, force: true });
  for (const dir of ['categories', 'products', 'articles', 'news', 'pages']) await mkdir(path.join(tmp, dir), { recursive: true });
  const limit = pLimit(64);
  const copyDir = async (dir: string) => {
    const names = await readdir(path.join(from, dir));
    await Promise.all(names.map((n) => limit(async () => writeFile(path.join(tmp, dir, n), await readFile(path.join(from, dir, n))))));
  };
  await Promise.all(['categories', 'products', 'articles', 'news', 'pages'].map(copyDir));
  await writeFile(path.join(tmp, 'site.json'), JSON.stringify(site, null, 2));
  await Promise.all(copies.map((c) => limit(() => writeFile(path.join(tmp, c.kind === 'product' ? 'products' : 'articles', c.file), JSON.stringify(c.json)))));
  const allRoutes = [...routes, ...copies.map((c) => c.route), ...extraPages];
  await writeFile(path.join(tmp, 'routes.json'), JSON.stringify(allRoutes));
  const result = {
    routes: allRoutes.length,
    products: products.length + copies.filter((c) => c.kind === 'product').length,
    articles: articles.length + copies.filter((c) => c.kind === 'article').length,
  };
  await writeFile(
    path.join(tmp, '.synthetic.json'),
    JSON.stringify({ fingerprint: print, target: targetRoutes, result, listPages: listPages - baseListPages }),
  );
  if (existsSync(out)) {
    const aside = `${out}.old-${process.pid}`;
    await rename(out, aside);
    await rename(tmp, out);
    await rm(aside, { recursive: true, force: true });
  } else {
    await mkdir(path.dirname(out), { recursive: true });
    await rename(tmp, out);
  }
  return { ...result, dir: out, cached: false };
}

function flag(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] !== undefined ? process.argv[i + 1] : fallback;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const routes = Number(flag('routes', '100000'));
  const from = flag('from', 'data');
  const out = flag('out', `bench/out/synthetic-${routes}`);
  const started = performance.now();
  const made = await makeSynthetic(from, out, routes);
  process.stdout.write(
    `${made.cached ? 'cached' : 'made'} ${made.dir}: ${made.routes} routes, ${made.products} products, ${made.articles} articles in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
