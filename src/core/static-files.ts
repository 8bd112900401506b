/**
 * The files (relative to the site's folder) that a static host with clean
 * URLs tries for a request path, in order: `/x` → `x`, `x/index.html`,
 * `x.html`; `/x/` → `x/index.html`; `/` → `index.html`. Under a base path
 * (`/shop/`) the path is read relative to it. The build's link check and the
 * audit both ask this, so a link one accepts the other accepts too.
 */
export function candidateFiles(urlPath: string, basePath = '/'): string[] {
  const inner = basePath === '/' ? urlPath : urlPath.slice(basePath.length - 1);
  const p = inner.replace(/^\/+/, '');
  if (p === '') return ['index.html'];
  if (p.endsWith('/')) return [`${p}index.html`];
  return [p, `${p}/index.html`, `${p}.html`];
}
