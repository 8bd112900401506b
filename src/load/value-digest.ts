/**
 * The hash of a validated file's value (an entity, site.json's settings),
 * made when the file is validated and kept with its result in the check's
 * cache entry, so that a file whose bytes did not change is not serialised
 * again to learn it. It is, by construction, the hash the build's record
 * makes of the same object (`digestOf` in src/model/reads.ts: a short sha1
 * of its JSON; a validated value holds no Map or Set); a test holds the two
 * equal on the shipped catalogue.
 */
import { hash } from 'node:crypto';

/** For a plain object (not an array, whose record hash is made from its elements'); undefined for anything else. */
export function valueDigest(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return hash('sha1', JSON.stringify(value), 'base64url').slice(0, 16);
}
