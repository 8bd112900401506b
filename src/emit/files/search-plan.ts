/**
 * The search index's layout: which documents each shard holds, and the name
 * of each shard's cache entry (its key, a hash of its documents'
 * identities). An incremental build needs it before it can tell which shards
 * to make again, and at 100,000 routes making it was over half a second of
 * the main thread's selection phase (docs/PERFORMANCE.md, "The search index's
 * layout made in its thread"). Made from ids, paths and each entity's
 * source (what names its document), it needs nothing else of the catalogue:
 * a large build hands it to the search thread as a few strings, and the
 * main thread goes on selecting meanwhile.
 */
import { createHash } from 'node:crypto';
import type { Catalogue } from '../../core/catalogue.js';
import type { SearchKind } from '../../core/search-options.js';
import { leanSource, placesOf, SCREEN_KIND, shardDocuments, type DocumentPlace, type SearchRoute } from './search-index.js';

/** The kinds of document in the order the plan's lists are given. */
const KINDS: readonly SearchKind[] = ['product', 'article', 'news'];

/**
 * What the layout is made from. Lists of strings are JSON (an id may hold any character), which a thread receives
 * as one copy rather than 100,000 strings.
 */
export interface LayoutInput {
  /** The indexing code's key (search-cache.ts): part of every shard's key. */
  code: string;
  /** The routes, in order: their paths, screens and node ids, each a JSON list. */
  paths: string;
  screens: string;
  nodeids: string;
  /** Per kind (KINDS' order), its entities' ids and sources (placeIdentity), each a JSON list in the catalogue's order. */
  entities: Array<{ ids: string; sources: string }>;
}

/** The layout: how many documents there are, and each shard's key and places. */
export interface ShardLayout {
  documents: number;
  keys: string[];
  /** Each shard's places in order: each place's route (its index) and entity (its index in its kind's list). */
  shards: Array<{ routes: Int32Array; entities: Int32Array }>;
}

/**
 * The layout's input for `routes` and `catalogue`, each entity named by its body's file (leanSource, see
 * placeIdentity); undefined when an entity has no body (a catalogue not loaded lean), whose document only its
 * text can name.
 */
export function layoutInput(catalogue: Catalogue, routes: readonly SearchRoute[], max: number, code: string): LayoutInput | undefined {
  const { bodies } = catalogue;
  if (bodies === undefined) return undefined;
  const entities: LayoutInput['entities'] = [];
  for (const list of [catalogue.products, catalogue.articles, catalogue.news]) {
    const sources: string[] = [];
    for (const entity of list) {
      const body = bodies.get(entity);
      if (body === undefined) return undefined;
      sources.push(leanSource(body.digest, max));
    }
    entities.push({ ids: JSON.stringify(list.map((e) => e.id)), sources: JSON.stringify(sources) });
  }
  return {
    code,
    paths: JSON.stringify(routes.map((r) => r.path)),
    screens: JSON.stringify(routes.map((r) => r.screen)),
    nodeids: JSON.stringify(routes.map((r) => r.nodeid)),
    entities,
  };
}

/** The layout of `input`: in the search thread of a large build, or wherever the caller runs it. */
export function shardLayout(input: LayoutInput): ShardLayout {
  const [paths, screens, nodeids] = [input.paths, input.screens, input.nodeids].map((list) => JSON.parse(list) as string[]);
  const routes: SearchRoute[] = paths.map((path, i) => ({ path, screen: screens[i] as SearchRoute['screen'], nodeid: nodeids[i] }));
  const ids = input.entities.map(({ ids }) => (JSON.parse(ids) as string[]).map((id) => ({ id })));
  const sources = Object.fromEntries(KINDS.map((kind, k) => [kind, JSON.parse(input.entities[k].sources) as string[]])) as Record<SearchKind, string[]>;
  const places = placesOf({ product: ids[0], article: ids[1], news: ids[2] }, routes);
  const shards = shardDocuments(places.map((place) => ({ place, url: routes[place.route].path })));
  return {
    documents: places.length,
    keys: shards.map((shard) =>
      shardKey(
        input.code,
        shard.map(({ place, url }) => placeIdentity(place.kind, url, sources[place.kind][place.entity])),
      ),
    ),
    shards: shards.map((shard) => ({
      routes: Int32Array.from(shard, ({ place }) => place.route),
      entities: Int32Array.from(shard, ({ place }) => place.entity),
    })),
  };
}

/** Shard `i`'s places in `layout`, as the catalogue's entities at their URLs. */
export function placesOfShard(layout: ShardLayout, i: number, catalogue: Catalogue, routes: readonly SearchRoute[]): DocumentPlace[] {
  const lists = { product: catalogue.products, article: catalogue.articles, news: catalogue.news };
  const { routes: at, entities } = layout.shards[i];
  return Array.from(at, (route, k) => {
    const { path, screen } = routes[route];
    const kind = SCREEN_KIND[screen]!;
    return { kind, url: path, entity: lists[kind][entities[k]] };
  });
}

/**
 * What names a lean entity's document: its kind, URL and `source` (its file's sha1 and the text cap). The title,
 * text and excerpt are made from the file's bytes by code in the indexing code's key, so they add nothing.
 */
export function placeIdentity(kind: SearchKind, url: string, source: string): string {
  return JSON.stringify([kind, url, source]);
}

/**
 * A shard's documents (their identities, a line each) and the indexing code, hashed: the name of its entry.
 * One hash a shard, not one a document: at 100,000 routes the documents' own digests were a third of a second of
 * every build whose data changed, and only the shards made again need them.
 */
export function shardKey(code: string, identities: readonly string[]): string {
  const h = createHash('sha256').update(`${code}\0shard\0`);
  for (const identity of identities) h.update(`${identity}\n`);
  return h.digest('hex').slice(0, 40);
}
