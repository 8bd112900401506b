/**
 * Pieces that repeat across pages (cards, the Share block, inquiry sections,
 * breadcrumb trails, the head's fields) are rendered by React once per site
 * model and reused.
 *
 * Inside renderRoute a <Repeated> piece either stands as a slot mark (its
 * template is known) or, the first time, is rendered in place between its
 * opening and closing marks, with value marks where its per-page values go;
 * the render stage then takes the template from there and puts every piece
 * in, its values escaped exactly as React escapes text and attributes.
 * Outside renderRoute (no sink) a piece renders directly with its values.
 *
 * Marks are text: NUL, a random nonce of the sink's model, a number, NUL.
 * React writes them through unescaped, and content cannot forge one: it
 * would have to know the nonce, which never reaches a page.
 *
 * Rules for a piece's `render(values)`: everything its HTML depends on,
 * besides `values`, is named by its key (and the site model); values are
 * only printed, as text or attribute values, never tested or transformed,
 * and at the start of a URL attribute only when known to be a non-empty URL
 * React keeps as it is (it rewrites `javascript:` URLs and drops empty
 * ones); and nothing in it may be something React hoists into <head>
 * (title, meta, link, an async script, an image that does not load lazily),
 * since a template taken from one page would lose it.
 */
import { createContext, type ReactNode, useContext } from 'react';

/** A repeated piece met while rendering a page, in document order. */
export interface PieceRef {
  key: string;
  values: readonly string[];
  /** Rendered in place with markers, between its opening and closing slots (its template was not known yet). */
  inline: boolean;
  /** A piece of <head> whose template is not known yet: renders it with markers, to be rendered on its own. */
  alone?: () => ReactNode;
}

export interface SlotSink {
  pieces: PieceRef[];
  /** Whether the template of `key` is known. */
  has(key: string): boolean;
  /** What stands for `values[j]` in a piece rendered in place. */
  marker(j: number): string;
  /** The mark where piece `index` stands (or opens, when rendered in place); `close` marks its end. */
  slot(index: number, close?: boolean): string;
}

export const SlotContext = createContext<SlotSink | null>(null);

const NO_VALUES: readonly string[] = [];

export function Repeated({ cacheKey, values = NO_VALUES, render }: { cacheKey: string; values?: readonly string[]; render: (values: readonly string[]) => ReactNode }) {
  const sink = useContext(SlotContext);
  if (sink === null) return render(values);
  const index = sink.pieces.length;
  const inline = !sink.has(cacheKey);
  sink.pieces.push({ key: cacheKey, values, inline });
  if (!inline) return sink.slot(index);
  return (
    <>
      {sink.slot(index)}
      {/* Pieces inside a piece render directly, with the outer piece's markers. */}
      <SlotContext.Provider value={null}>{render(values.map((_, j) => sink.marker(j)))}</SlotContext.Provider>
      {sink.slot(index, true)}
    </>
  );
}

const identities = new WeakMap<object, number>();
let nextIdentity = 0;

/** A number naming one object (a product, an article) for cache keys: two entities that share an id stay apart. */
export function identityOf(entity: object): number {
  let n = identities.get(entity);
  if (n === undefined) identities.set(entity, (n = nextIdentity++));
  return n;
}

/**
 * A repeated piece of <head>. React writes a head in this order: charset,
 * viewport, image preloads and async scripts, then every title, meta and
 * link (hoisted out of their place), then the other children in place. So
 * such a piece cannot be taken from the page: it always stands as a slot,
 * and the render stage renders its template on its own, in a <head> of its
 * own, where React orders it the same way. For the page to come out the
 * same, the piece must hold every title, meta and link of the head (but
 * charset and viewport) and be the first of the head's children that stay
 * in place. Otherwise the rules of Repeated apply.
 */
export function RepeatedHead({ cacheKey, values, render }: { cacheKey: string; values: readonly string[]; render: (values: readonly string[]) => ReactNode }) {
  const sink = useContext(SlotContext);
  if (sink === null) return render(values);
  const index = sink.pieces.length;
  const known = sink.has(cacheKey);
  sink.pieces.push({ key: cacheKey, values, inline: false, alone: known ? undefined : () => render(values.map((_, j) => sink.marker(j))) });
  return sink.slot(index);
}
