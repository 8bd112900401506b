/**
 * Structured-data checks by Google's documented required and recommended
 * properties, and the rule that structured data must describe what the page
 * shows. The catalogue sells on quote: a Product must stay plain, never an
 * Offer with an invented price.
 */
import type { JsonLdFact, RuleId } from './types.js';

type Entity = Record<string, unknown>;
export type SchemaEmit = (rule: RuleId, message: string) => void;

const isObject = (v: unknown): v is Entity => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);
const typesOf = (e: Entity): string[] => asArray(e['@type']).filter((t): t is string => typeof t === 'string');
const present = (v: unknown): boolean => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '') && !(Array.isArray(v) && v.length === 0);
const normal = (s: string): string => s.replace(/\s+/g, ' ').trim().toLowerCase();

/** Top-level entities of a JSON-LD block, with @graph members unwrapped. */
function topEntities(value: unknown): Entity[] {
  const out: Entity[] = [];
  for (const item of asArray(value)) {
    if (!isObject(item)) continue;
    if (Array.isArray(item['@graph'])) out.push(...item['@graph'].filter(isObject));
    else out.push(item);
  }
  return out;
}

const ARTICLE_TYPES = new Set(['Article', 'NewsArticle', 'BlogPosting']);

function textShown(value: unknown, visibleText: string): boolean {
  return typeof value !== 'string' || value.trim() === '' || visibleText.includes(normal(value));
}

/** A price as a page would print it: "12.5" also matches "12.50". */
function priceShown(price: unknown, visibleText: string): boolean {
  const n = Number(price);
  if (!Number.isFinite(n)) return visibleText.includes(normal(String(price)));
  return [String(price), String(n), n.toFixed(2)].some((p) => visibleText.includes(p));
}

function checkProduct(e: Entity, visibleText: string, emit: SchemaEmit): void {
  if (!present(e.name)) emit('schema/missing-required', 'Product has no "name" (required by Google).');
  else if (!textShown(e.name, visibleText)) emit('schema/not-on-page', `Product name "${String(e.name)}" is not shown on the page.`);
  const missing = ['description', 'image'].filter((p) => !present(e[p]));
  if (missing.length > 0) emit('schema/missing-recommended', `Product lacks recommended ${missing.map((p) => `"${p}"`).join(', ')}.`);
  for (const offer of asArray(e.offers).filter(isObject)) {
    const spec = asArray(offer.priceSpecification).find(isObject);
    const price = offer.price ?? offer.lowPrice ?? spec?.price;
    if (!present(price)) {
      emit('schema/offer-without-price', `Product "${String(e.name ?? '')}" has an Offer without a price; quote-only products must not carry offers.`);
    } else if (!priceShown(price, visibleText)) {
      emit('schema/not-on-page', `Product "${String(e.name ?? '')}" declares the price ${String(price)}, which the page does not show.`);
    }
  }
}

function checkArticle(e: Entity, type: string, visibleText: string, emit: SchemaEmit): void {
  const missing = ['headline', 'image', 'datePublished', 'author'].filter((p) => !present(e[p]));
  for (const author of asArray(e.author)) if (isObject(author) && !present(author.name)) missing.push('author.name');
  if (missing.length > 0) emit('schema/missing-recommended', `${type} lacks recommended ${missing.map((p) => `"${p}"`).join(', ')}.`);
  if (present(e.headline) && !textShown(e.headline, visibleText)) {
    emit('schema/not-on-page', `${type} headline "${String(e.headline)}" is not shown on the page.`);
  }
}

function checkBreadcrumbs(e: Entity, visibleText: string, emit: SchemaEmit): void {
  const items = asArray(e.itemListElement);
  if (items.length === 0) {
    emit('schema/missing-required', 'BreadcrumbList has no "itemListElement" (required).');
    return;
  }
  items.forEach((raw, i) => {
    const item = isObject(raw) ? raw : {};
    const target = item.item;
    const name = item.name ?? (isObject(target) ? target.name : undefined);
    const missing: string[] = [];
    if (!present(item.position)) missing.push('position');
    if (!present(name)) missing.push('name');
    // Google: the last crumb may omit its item (it is the page itself).
    if (!present(isObject(target) ? target['@id'] : target) && i < items.length - 1) missing.push('item');
    if (missing.length > 0) emit('schema/missing-required', `BreadcrumbList item ${i + 1} lacks required ${missing.map((p) => `"${p}"`).join(', ')}.`);
    else if (!textShown(name, visibleText)) emit('schema/not-on-page', `BreadcrumbList item "${String(name)}" is not shown on the page.`);
  });
}

export function checkStructuredData(blocks: readonly JsonLdFact[], visibleText: string, emit: SchemaEmit): void {
  blocks.forEach((block, b) => {
    if (!block.ok) {
      emit('schema/invalid-json', `JSON-LD block ${b + 1} does not parse: ${block.error}.`);
      return;
    }
    const topLevel = asArray(block.value).filter(isObject);
    for (const item of topLevel) {
      if (!present(item['@context'])) emit('schema/missing-required', `JSON-LD block ${b + 1} has no "@context" (expected "https://schema.org").`);
    }
    for (const e of topEntities(block.value)) {
      const types = typesOf(e);
      if (types.length === 0) {
        emit('schema/missing-required', `A JSON-LD entity in block ${b + 1} has no "@type".`);
        continue;
      }
      for (const type of types) {
        if (type === 'Product') checkProduct(e, visibleText, emit);
        else if (ARTICLE_TYPES.has(type)) checkArticle(e, type, visibleText, emit);
        else if (type === 'BreadcrumbList') checkBreadcrumbs(e, visibleText, emit);
        else if (type === 'Organization') {
          const missing = ['name', 'url', 'logo'].filter((p) => !present(e[p]));
          if (missing.length > 0) emit('schema/missing-recommended', `Organization lacks recommended ${missing.map((p) => `"${p}"`).join(', ')}.`);
        } else if (type === 'WebSite') {
          const missing = ['name', 'url'].filter((p) => !present(e[p]));
          if (missing.length > 0) emit('schema/missing-required', `WebSite lacks required ${missing.map((p) => `"${p}"`).join(', ')} (Google site names).`);
        }
      }
    }
  });
}
