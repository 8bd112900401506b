/**
 * `dist/_headers`: the response headers `site serve` sends, for the static
 * hosts that read such a file (Netlify, Cloudflare Pages): the security
 * headers on every path, the Content-Security-Policy, and a year's cache for
 * the files whose names carry a hash of their content. Other hosts publish it
 * as a plain file that says nothing a response would not; GitHub Pages leaves
 * it out (Jekyll skips names that start with '_').
 *
 * The pages have no inline script or style (the templates have none, and
 * content cannot add one: React escapes text), so one policy fits every page.
 * The scripts of third-party services are another matter: what they load and
 * where they send data is theirs to change, so with any of them configured
 * the file leaves the policy out rather than break them; `site serve --csp`
 * is where to name their hosts.
 */
import { contentSecurityPolicy, IMMUTABLE, IMMUTABLE_PATHS, NO_INLINE, originOf, SECURITY_HEADERS } from '../../core/http-headers.js';
import type { SiteConfig } from '../../core/schema.js';

export const HEADERS_FILE = '_headers';

export function headersFile(site: Pick<SiteConfig, 'inquiryEndpoint' | 'thirdParty'>): string {
  const services = Object.values(site.thirdParty).some((id) => id.trim() !== '');
  // Forms post to the inquiry endpoint, by fetch and, without JavaScript, as a plain form.
  const endpoint = originOf(site.inquiryEndpoint);
  const csp = contentSecurityPolicy(NO_INLINE, { 'form-action': endpoint, 'connect-src': endpoint });
  const lines = ['# Response headers for Netlify and Cloudflare Pages, written by `site build`: what `site serve` sends.'];
  // Comments stand on lines of their own, unindented: both hosts read those as comments.
  if (services) lines.push('# No Content-Security-Policy: data/site.json configures third-party scripts, whose hosts it would have to name.');
  lines.push('/*');
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) lines.push(`  ${name}: ${value}`);
  if (!services) lines.push(`  Content-Security-Policy: ${csp}`);
  for (const path of IMMUTABLE_PATHS) lines.push(path, `  Cache-Control: ${IMMUTABLE}`);
  return lines.join('\n') + '\n';
}
