/**
 * zod issues → diagnostics an editor can act on: one per problem, each with
 * the JSON pointer of the offending value and a message naming the field and
 * what was expected.
 */
import type { z } from 'zod';
import { pointer } from '../core/diagnostics.js';

type Issue = z.core.$ZodIssue;
type Path = ReadonlyArray<PropertyKey>;

export interface SchemaProblem {
  path: Path;
  message: string;
}

/** Flattens zod's issues into one problem per offending value, in document order of the issues. */
export function schemaProblems(issues: readonly Issue[], base: Path = []): SchemaProblem[] {
  return issues.flatMap((issue) => problemsOf(issue, base));
}

function problemsOf(issue: Issue, base: Path): SchemaProblem[] {
  const path = [...base, ...issue.path];
  if (issue.code === 'unrecognized_keys') {
    // One per key: each is a separate line for the editor to delete or rename.
    return issue.keys.map((key) => ({
      path: [...path, key],
      message: `unknown field "${key}"; remove it or correct its spelling`,
    }));
  }
  if (issue.code === 'invalid_union' && issue.errors.length > 0) return unionProblems(issue.errors, path);
  return [{ path, message: describe(issue) }];
}

/**
 * A union failed every branch. The branch that got furthest into the value
 * explains the failure (a link missing its `href`, not "expected a string");
 * when every branch failed at the value itself, say what would have fitted.
 */
function unionProblems(branches: ReadonlyArray<readonly Issue[]>, path: Path): SchemaProblem[] {
  const flattened = branches.map((b) => schemaProblems(b, path));
  const depth = (ps: SchemaProblem[]) => Math.max(...ps.map((p) => p.path.length));
  const deepest = Math.max(...flattened.map(depth));
  if (deepest > path.length) return flattened.find((ps) => depth(ps) === deepest)!;
  const expected = branches.flatMap((b) => b.map(expectation));
  return [{ path, message: `expected ${[...new Set(expected)].join(' or ')}${received(branches[0][0])}` }];
}

function expectation(issue: Issue): string {
  if (issue.code === 'invalid_type') return String(issue.expected);
  if (issue.code === 'invalid_value') return issue.values.map((v) => JSON.stringify(v)).join(' or ');
  return stripPrefix(issue.message);
}

function received(issue: Issue | undefined): string {
  const m = issue?.message.match(/, received (\w+)$/);
  return m ? `, received ${m[1]}` : '';
}

function describe(issue: Issue): string {
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return `missing required field (expected ${String(issue.expected)})`;
  }
  return stripPrefix(issue.message);
}

/** zod prefixes most messages with "Invalid input: "; the location already says that. */
function stripPrefix(message: string): string {
  const m = message.replace(/^Invalid input: /, '');
  return m.charAt(0).toLowerCase() + m.slice(1);
}

export function problemPointer(path: Path): string {
  return pointer(...path.map((p) => (typeof p === 'number' ? p : String(p))));
}

/** `description[2].text` — how an editor names the field in a message. */
export function fieldName(path: Path): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out === '' ? '(the whole file)' : out;
}
