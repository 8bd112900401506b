/** The build's own findings (codes `build/*`), each naming the file an editor opens to fix it. */
import path from 'node:path';
import type { Diagnostic } from '../core/diagnostics.js';
import type { ErrorPageFile } from '../core/error-pages.js';
import type { BrokenLink } from './links/scan.js';
import type { RenderFailure } from './threads/protocol.js';
import type { PlannedRoute } from './types.js';
import { severityOf, type BuildCode } from '../core/codes.js';

const posix = (p: string): string => p.split(path.sep).join('/');
/** A path as diagnostics show it: relative to the working directory, forward slashes. */
export const shown = (p: string): string => posix(path.relative(process.cwd(), p)) || '.';

/** What the build reports when an error page's template failed and the spec's minimal page stands in for it. */
const ERROR_PAGE_FALLBACK: Record<ErrorPageFile, { code: BuildCode; name: string }> = {
  '404.html': { code: 'build/not-found-fallback', name: '404' },
  '500.html': { code: 'build/error-page-fallback', name: 'error page (500)' },
};

export function errorPageFallbackDiagnostic(file: ErrorPageFile, cause: string, outDir: string): Diagnostic {
  const { code, name } = ERROR_PAGE_FALLBACK[file];
  return {
    code,
    severity: severityOf(code),
    file: shown(path.join(outDir, file)),
    pointer: '',
    message: `The ${name} template failed (${cause}); the minimal error page was written instead. Fix the template and rebuild.`,
  };
}

export function unsafePathDiagnostic(route: { path: string; declarations: string[] }, routesFile: string, why: string): Diagnostic {
  return {
    code: 'build/unsafe-path',
    severity: severityOf('build/unsafe-path'),
    file: routesFile,
    pointer: `${route.declarations[0] ?? ''}/path`,
    message: `Route ${JSON.stringify(route.path)} was not written: ${why}; give the route a path of letters, digits and hyphens.`,
  };
}

export function twinClashDiagnostic(route: { path: string; declarations: string[] }, routesFile: string, file: string, twin: string): Diagnostic {
  return {
    code: 'build/html-twin-clash',
    severity: severityOf('build/html-twin-clash'),
    file: routesFile,
    pointer: `${route.declarations[0] ?? ''}/path`,
    message: `Route ${JSON.stringify(route.path)} is written as ${file} only: ${twin}, which lets GitHub Pages, Netlify and Cloudflare Pages serve it without a redirect to "${route.path}/", is another page's file or folder. Rename one of the two routes.`,
  };
}

export function failureDiagnostic(f: RenderFailure, plan: readonly PlannedRoute[], routesFile: string): Diagnostic {
  if (f.index < 0) {
    return {
      code: 'build/render-failed',
      severity: severityOf('build/render-failed'),
      file: routesFile,
      pointer: '',
      message: `${f.subject} failed to render: ${f.cause}`,
    };
  }
  const p = plan[f.index];
  return {
    code: 'build/render-failed',
    severity: severityOf('build/render-failed'),
    file: routesFile,
    pointer: p.route.declarations[0] ?? '',
    message: `Route ${p.route.path} (screen "${p.route.screen}"${f.template ? `, template ${f.template}` : ''}) failed to render: ${f.cause}`,
  };
}

export function brokenDiagnostic(b: BrokenLink, fileOfSource: (source: string) => string, outDir: string): Diagnostic {
  const first = b.sources[0] ?? '/';
  const file = fileOfSource(first);
  const more = b.references > 1 ? ` and ${b.references - 1} more page${b.references > 2 ? 's' : ''}` : '';
  return {
    code: 'build/broken-link',
    severity: severityOf('build/broken-link'),
    file: shown(path.join(outDir, file)),
    pointer: '',
    message: `Link to ${b.target} (from ${first}${more}) resolves to no built file; fix the link or add the page it names.`,
  };
}

export function unsafeLinkDiagnostic(reference: string, file: string, outDir: string): Diagnostic {
  return {
    code: 'build/unsafe-link',
    severity: severityOf('build/unsafe-link'),
    file: shown(path.join(outDir, file)),
    pointer: '',
    message: `The page links to "${reference.slice(0, 80)}", a URL that runs code when followed; a template let it through, so fix the template (content with such links is refused by the check).`,
  };
}
