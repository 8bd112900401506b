/**
 * `base`'s own properties followed by `extra`'s, in a new object: what `{ ...base, ...extra }` makes, for objects
 * made by the thousand (a route, a data file, a build record's entry, one per page).
 *
 * On Node 20 (V8 11.3) a spread run over and over gives nearly every object it makes a hidden class of its own:
 * at 100,000 routes that cost tens of megabytes of classes, and every later read of the objects' fields went
 * megamorphic (docs/PERFORMANCE.md, "One hidden class per route"). Object.assign adds the properties one at a
 * time, along class transitions that all such objects share; Node 22 and later share them either way.
 *
 * Object.assign sets, where a spread defines: `base` must be an object this code made or a schema validated,
 * never parsed input as it came (an own `__proto__` key would set the new object's prototype).
 */
export function extended<T extends object, U extends object>(base: T, extra: U): T & U {
  return Object.assign({}, base, extra);
}
