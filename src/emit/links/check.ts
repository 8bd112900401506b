/**
 * The link phase: every internal reference the render threads tallied,
 * resolved against the files this build really wrote (search index
 * included), never against a walk of the output folder.
 */
import { errorPageOfSource } from '../../core/error-pages.js';
import type { Diagnostic } from '../../core/diagnostics.js';
import { brokenDiagnostic, unsafeLinkDiagnostic } from '../diagnostics.js';
import type { LinkSummary, PlannedRoute } from '../types.js';
import { findBroken, type BrokenLink, type LinkTally } from './scan.js';

export interface LinkCheck {
  links: LinkSummary;
  broken: BrokenLink[];
  unsafe: Array<{ reference: string; source: string }>;
  diagnostics: Diagnostic[];
}

/**
 * `tally` and `unsafe` as the render phase gathered them (a source is a plan
 * index, or an error page's negative number); `files` every file written.
 */
export function checkLinks(
  tally: LinkTally,
  unsafeFound: ReadonlyArray<readonly [string, number]>,
  plan: readonly PlannedRoute[],
  errorPages: number,
  files: ReadonlySet<string>,
  outDir: string,
): LinkCheck {
  const pathOfSource = (i: number) => (i < 0 ? `/${errorPageOfSource(i)}` : plan[i].route.path);
  // Made for the diagnostics only: a build with no broken or unsafe link does not index 100,000 routes for nothing.
  let fileByPath: Map<string, string> | undefined;
  const fileOfSource = (source: string) => (fileByPath ??= new Map(plan.map((p) => [p.route.path, p.file]))).get(source) ?? source.slice(1);
  const broken = findBroken(tally, files, pathOfSource);
  const unsafe = unsafeFound.map(([reference, i]) => ({ reference, source: pathOfSource(i) }));
  const diagnostics = [
    ...broken.map((b) => brokenDiagnostic(b, fileOfSource, outDir)),
    ...unsafe.map((u) => unsafeLinkDiagnostic(u.reference, fileOfSource(u.source), outDir)),
  ];
  let references = 0;
  for (const t of tally.values()) references += t.count;
  const links: LinkSummary = { pages: plan.length + errorPages, references, targets: tally.size, broken: broken.length, unsafe: unsafe.length };
  return { links, broken, unsafe, diagnostics };
}
