/**
 * The <head> of every page: prints the HeadData computed in
 * src/render/head.ts, the bundled assets and configured third-party scripts.
 */
import type { SiteConfig } from '../load/schema.js';
import type { HeadData } from '../render/head.js';
import type { AssetRefs } from '../render/model.js';
import { absoluteUrl } from '../render/text.js';
import { jsonLdScript } from './JsonLd.js';

const enc = encodeURIComponent;

/** Third-party scripts, only for ids that are configured; all async, ids URL-encoded. */
export function thirdPartyScripts(config: SiteConfig['thirdParty']): Array<{ key: string; src: string; data: Record<string, string> }> {
  const out: Array<{ key: string; src: string; data: Record<string, string> }> = [];
  const analytics = config.analyticsId.trim();
  const gtm = config.tagManagerId.trim();
  const chat = config.chatWidgetId.trim();
  const dsn = config.errorReportingDsn.trim();
  if (analytics) out.push({ key: 'analytics', src: `https://www.googletagmanager.com/gtag/js?id=${enc(analytics)}`, data: { 'data-analytics-id': analytics } });
  if (gtm) out.push({ key: 'tag-manager', src: `https://www.googletagmanager.com/gtm.js?id=${enc(gtm)}`, data: { 'data-tag-manager-id': gtm } });
  // Chat widget ids are "property/widget" (Tawk.to style): each segment is encoded on its own.
  if (chat) out.push({ key: 'chat', src: `https://embed.tawk.to/${chat.split('/').map(enc).join('/')}`, data: {} });
  if (dsn) {
    // A Sentry DSN is https://<public key>@host/project; its loader script is named by the key.
    const key = /^https?:\/\/([^@/]+)@/.exec(dsn)?.[1] ?? dsn;
    out.push({ key: 'errors', src: `https://js.sentry-cdn.com/${enc(key)}.min.js`, data: { 'data-error-reporting': '' } });
  }
  return out;
}

export function Head({ head, site, assets, search = false }: { head: HeadData; site: SiteConfig; assets: AssetRefs; search?: boolean }) {
  const image = head.image ? (/^https?:\/\//i.test(head.image.url) ? head.image.url : absoluteUrl(site.origin, head.image.url)) : undefined;
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <title>{head.title}</title>
      <meta name="description" content={head.description} />
      {head.keywords ? <meta name="keywords" content={head.keywords} /> : null}
      {head.indexable ? null : <meta name="robots" content="noindex, follow" />}
      {head.canonical ? <link rel="canonical" href={head.canonical} /> : null}
      {head.prev ? <link rel="prev" href={head.prev} /> : null}
      {head.next ? <link rel="next" href={head.next} /> : null}
      <meta property="og:type" content={head.ogType} />
      <meta property="og:site_name" content={site.brand} />
      <meta property="og:title" content={head.title} />
      <meta property="og:description" content={head.description} />
      {head.canonical ? <meta property="og:url" content={head.canonical} /> : null}
      {image ? <meta property="og:image" content={image} /> : null}
      {image && head.image?.width ? <meta property="og:image:width" content={String(head.image.width)} /> : null}
      {image && head.image?.height ? <meta property="og:image:height" content={String(head.image.height)} /> : null}
      {image && head.image ? <meta property="og:image:alt" content={head.image.alt} /> : null}
      {head.published ? <meta property="article:published_time" content={head.published} /> : null}
      {head.modified ? <meta property="article:modified_time" content={head.modified} /> : null}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={head.title} />
      <meta name="twitter:description" content={head.description} />
      {image ? <meta name="twitter:image" content={image} /> : null}
      <meta name="theme-color" content="#1d4d2b" />
      {/* An empty icon: browsers stop asking for /favicon.ico, which the catalogue does not ship. */}
      <link rel="icon" href="data:," />
      <link rel="stylesheet" href={assets.css} />
      <script type="module" src={assets.js} defer></script>
      {search ? <script type="module" src={assets.search} defer></script> : null}
      {thirdPartyScripts(site.thirdParty).map((s) => (
        <script key={s.key} src={s.src} async {...s.data}></script>
      ))}
      {head.jsonLd.map(jsonLdScript)}
    </head>
  );
}
