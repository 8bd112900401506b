/**
 * The validators every command's flags go through, so that one kind of bad
 * value reads the same whichever command it was given to. Each throws a
 * UserError (exit code 2) naming the flag, the value and what was expected.
 */
import { UserError } from '../core/errors.js';

/** A whole number from `min` to `max` (digits only: "1e3", "0x10", " 5" and "" are refused). */
export function wholeNumber(value: string, flag: string, min: number, max: number = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max) {
    const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
    throw new UserError(`${flag} ${JSON.stringify(value)}: expected a whole number ${range}`);
  }
  return n;
}

/** An absolute http(s) URL. */
export function httpUrl(value: string, flag: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UserError(`${flag} ${JSON.stringify(value)}: expected an absolute http(s) URL`);
  return url;
}

/** One of `choices`. */
export function oneOf<T extends string>(value: string, flag: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(value)) throw new UserError(`${flag} ${JSON.stringify(value)}: expected ${choices.join(' or ')}`);
  return value as T;
}

/** Commander's collector for a repeatable flag. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
