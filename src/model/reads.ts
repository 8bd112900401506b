/**
 * What a page is made from. A recording site model answers every lookup as
 * the model does and notes, while a page renders, the name of each thing it
 * read; readDigests hashes the value behind a name. An incremental build
 * keeps each page's names and their hashes: a page whose names all hash as
 * they did when it was rendered renders the same bytes (with the same route,
 * body, render code and assets, which the build compares itself).
 *
 * Names, by how the model holds the value (F a field, K a map key, I an index):
 * - `F`: a field read whole (the site config, the newest date);
 * - `F\0K`: one entry of a map (an entity, a path, a list's routes);
 * - `F\u0001I`, `F\u0001length`: one element of an array field, its length;
 * - `F\0K\u0001I`, `F\0K\u0001length`: the same for an array held in a map (a category's products).
 * An array is never read whole by its name: `slice(0, 3)` reads three
 * elements and the length, so a page depends on the items it shows, not on
 * the whole list. Iterating a map, or asking its size, reads the whole field.
 * A key that holds a separator names nothing reliably: it reads UNTRACKED,
 * whose hash differs on every build, so such a page is always rendered.
 */
import { hash } from 'node:crypto';
import type { SiteModel } from './model.js';

const KEY = '\0';
const ELEMENT = '\u0001';
/** A read no name can describe: never the same twice. */
export const UNTRACKED = `untracked${KEY}`;

let current: Set<string> | null = null;

/** Notes a read by its name, when a page is being recorded. */
export function noteRead(name: string): void {
  if (current !== null) current.add(name);
}

/** Runs `render` with every read it makes noted; returns them, in the order first made. */
export function recordReads<T>(render: () => T): { value: T; reads: string[] } {
  const saved = current;
  const reads = new Set<string>();
  current = reads;
  try {
    const value = render();
    return { value, reads: [...reads] };
  } finally {
    current = saved;
  }
}

/** Runs `fn` without noting its reads: for a piece whose reads are named as one (the header and footer). */
export function unrecorded<T>(fn: () => T): T {
  const saved = current;
  current = null;
  try {
    return fn();
  } finally {
    current = saved;
  }
}

const isIndex = (prop: string | symbol): boolean => typeof prop === 'string' && prop.length > 0 && prop.charCodeAt(0) >= 48 && prop.charCodeAt(0) <= 57;

/** An array whose element and length reads are noted under `prefix`. */
function recordingArray<T>(array: readonly T[], prefix: string, made: WeakMap<object, unknown>): readonly T[] {
  const known = made.get(array) as readonly T[] | undefined;
  if (known !== undefined) return known;
  const proxy = new Proxy(array, {
    get(target, prop, receiver) {
      if (current !== null) {
        if (isIndex(prop)) current.add(`${prefix}${ELEMENT}${prop as string}`);
        else if (prop === 'length') current.add(`${prefix}${ELEMENT}length`);
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  made.set(array, proxy);
  return proxy;
}

const tracked = (key: unknown): key is string | number => (typeof key === 'string' && !key.includes(KEY) && !key.includes(ELEMENT)) || typeof key === 'number';

/** A map whose lookups are noted under `field`; its arrays are recording arrays. */
function recordingMap<K, V>(map: ReadonlyMap<K, V>, field: string, made: WeakMap<object, unknown>): ReadonlyMap<K, V> {
  const entry = (key: K): V | undefined => {
    const value = map.get(key);
    if (current === null) return value;
    if (!tracked(key)) {
      current.add(UNTRACKED);
      return value;
    }
    const name = `${field}${KEY}${key}`;
    current.add(name);
    return Array.isArray(value) ? (recordingArray(value, name, made) as V) : value;
  };
  const whole = () => noteRead(field);
  const view: ReadonlyMap<K, V> = {
    get: entry,
    has(key) {
      entry(key);
      return map.has(key);
    },
    get size() {
      whole();
      return map.size;
    },
    forEach(fn, thisArg) {
      whole();
      map.forEach((v, k) => fn.call(thisArg, v, k, view));
    },
    entries() {
      whole();
      return map.entries();
    },
    keys() {
      whole();
      return map.keys();
    },
    values() {
      whole();
      return map.values();
    },
    [Symbol.iterator]() {
      whole();
      return map[Symbol.iterator]();
    },
  };
  return view;
}

/**
 * The model as a page sees it while its reads are recorded (see recordReads):
 * the same values, every field's reads noted. Reads outside recordReads cost
 * a check and are not noted.
 */
export function recordingModel(model: SiteModel): SiteModel {
  const made = new WeakMap<object, unknown>();
  const view = {} as Record<string, unknown>;
  for (const [field, value] of Object.entries(model)) {
    if (value instanceof Map) {
      const map = recordingMap(value, field, made);
      Object.defineProperty(view, field, { enumerable: true, get: () => map });
    } else if (Array.isArray(value)) {
      const array = recordingArray(value, field, made);
      Object.defineProperty(view, field, {
        enumerable: true,
        get() {
          noteRead(field);
          return array;
        },
      });
    } else {
      Object.defineProperty(view, field, {
        enumerable: true,
        get() {
          noteRead(field);
          return value;
        },
      });
    }
  }
  return view as unknown as SiteModel;
}

/** A short hash (96 bits, base64url) of a string. */
export const shortHash = (text: string): string => hash('sha1', text, 'base64url').slice(0, 16);

/** Maps and sets serialize as their entries, in order (JSON.stringify would write `{}`). */
const replacer = (_key: string, value: unknown): unknown => (value instanceof Map ? { map: [...value] } : value instanceof Set ? { set: [...value] } : value);

/**
 * The hash of each name's value in `model`: each object's made once, each name's as often as asked (a build asks
 * for each name once, see incremental/record.ts). `extra`
 * answers names the model does not hold (the header and footer, which the
 * render stage names); a name nobody answers hashes differently every time.
 * `made` gives an object's hash when it was made before, as this function
 * would make it (Catalogue.valueDigests: each file's value, hashed when the
 * file was validated).
 */
export function readDigests(
  model: SiteModel,
  extra?: (name: string) => string | undefined,
  made?: (value: object) => string | undefined,
): (name: string) => string {
  const ofObject = new WeakMap<object, string>();
  const digestOf = (value: unknown): string => {
    if (value === undefined) return 'undefined';
    if (typeof value !== 'object' || value === null) return shortHash(JSON.stringify(value));
    let digest = ofObject.get(value) ?? made?.(value);
    if (digest === undefined) {
      digest = Array.isArray(value) ? shortHash(value.map(digestOf).join(',')) : shortHash(JSON.stringify(value, replacer));
      ofObject.set(value, digest);
    }
    return digest;
  };
  const fields = model as unknown as Record<string, unknown>;
  /** A map entry or field as its name reads it: an array only as being one (its elements are read by their own names). */
  const shallow = (value: unknown): string => (Array.isArray(value) ? 'array' : digestOf(value));
  const resolve = (name: string): string => {
    const element = name.lastIndexOf(ELEMENT);
    const holder = element < 0 ? name : name.slice(0, element);
    const at = holder.indexOf(KEY);
    const field = at < 0 ? holder : holder.slice(0, at);
    if (!Object.hasOwn(fields, field)) return extra?.(name) ?? `unknown:${Math.random()}`;
    let value = fields[field];
    if (at >= 0) {
      if (!(value instanceof Map)) return 'undefined';
      const key = holder.slice(at + 1);
      // Map keys are strings, or numbers (list page numbers); a number's name is its decimal form.
      value = value.has(key) ? value.get(key) : /^\d+$/.test(key) ? value.get(Number(key)) : undefined;
    }
    if (element < 0) return at < 0 && value instanceof Map ? digestOf(value) : shallow(value);
    if (!Array.isArray(value)) return 'undefined';
    const which = name.slice(element + 1);
    return which === 'length' ? String(value.length) : digestOf(value[Number(which)]);
  };
  return (name) => (name === UNTRACKED ? `untracked:${Math.random()}` : resolve(name));
}
