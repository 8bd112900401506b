/**
 * The <head> of every page: prints the HeadData computed in
 * src/model/head.ts, the bundled assets and configured third-party scripts.
 */
import type { SiteConfig } from '../core/schema.js';
import { LOGO_MARK } from '../model/artwork.js';
import type { HeadData } from '../model/head.js';
import type { AssetRefs } from '../model/model.js';
import { siteUrl } from '../model/text.js';
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

interface HeadProps {
  head: HeadData;
  site: SiteConfig;
  assets: AssetRefs;
  search?: boolean;
}

/** Which optional fields a head has. */
interface HeadShape {
  keywords: boolean;
  noindex: boolean;
  canonical: boolean;
  prev: boolean;
  next: boolean;
  image: boolean;
  width: boolean;
  height: boolean;
  published: boolean;
  modified: boolean;
  search: boolean;
}

/** The strings a head prints. */
type HeadValues = Record<
  'title' | 'description' | 'keywords' | 'canonical' | 'prev' | 'next' | 'ogType' | 'image' | 'width' | 'height' | 'alt' | 'published' | 'modified',
  string
>;

/**
 * Everything of the head but charset, viewport, third-party scripts and
 * JSON-LD: what React hoists (title, meta, link) in document order, then the
 * page's own module scripts. The shape decides what is there.
 */
function HeadFields({ site, assets, shape, v }: { site: SiteConfig; assets: AssetRefs; shape: HeadShape; v: HeadValues }) {
  return (
    <>
      <title>{v.title}</title>
      <meta name="description" content={v.description} />
      {shape.keywords ? <meta name="keywords" content={v.keywords} /> : null}
      {shape.noindex ? <meta name="robots" content="noindex, follow" /> : null}
      {shape.canonical ? <link rel="canonical" href={v.canonical} /> : null}
      {shape.prev ? <link rel="prev" href={v.prev} /> : null}
      {shape.next ? <link rel="next" href={v.next} /> : null}
      <meta property="og:type" content={v.ogType} />
      <meta property="og:site_name" content={site.brand} />
      <meta property="og:title" content={v.title} />
      <meta property="og:description" content={v.description} />
      {shape.canonical ? <meta property="og:url" content={v.canonical} /> : null}
      {shape.image ? <meta property="og:image" content={v.image} /> : null}
      {shape.width ? <meta property="og:image:width" content={v.width} /> : null}
      {shape.height ? <meta property="og:image:height" content={v.height} /> : null}
      {shape.image ? <meta property="og:image:alt" content={v.alt} /> : null}
      {shape.published ? <meta property="article:published_time" content={v.published} /> : null}
      {shape.modified ? <meta property="article:modified_time" content={v.modified} /> : null}
      <meta name="twitter:card" content={shape.image ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={v.title} />
      <meta name="twitter:description" content={v.description} />
      {shape.image ? <meta name="twitter:image" content={v.image} /> : null}
      <meta name="theme-color" content="#1d4d2b" />
      <link rel="icon" href={LOGO_MARK.url} type="image/svg+xml" />
      <link rel="stylesheet" href={assets.css} />
      {/* A module script is deferred by nature; HTML forbids a `defer` attribute on it. */}
      <script type="module" src={assets.js}></script>
      {shape.search ? <script type="module" src={assets.search}></script> : null}
    </>
  );
}

export function Head({ head, site, assets, search = false }: HeadProps) {
  const shared = head.shareImage;
  const image = shared ? siteUrl(site.origin, shared.url) : undefined;
  const shape: HeadShape = {
    keywords: head.keywords !== '',
    noindex: !head.indexable,
    canonical: head.canonical !== '',
    prev: Boolean(head.prev),
    next: Boolean(head.next),
    image: image !== undefined,
    width: image !== undefined && Boolean(shared?.width),
    height: image !== undefined && Boolean(shared?.height),
    published: Boolean(head.published),
    modified: Boolean(head.modified),
    search,
  };
  const values: HeadValues = {
    title: head.title,
    description: head.description,
    keywords: head.keywords,
    canonical: head.canonical,
    prev: head.prev ?? '',
    next: head.next ?? '',
    ogType: head.ogType,
    image: image ?? '',
    width: String(shared?.width ?? ''),
    height: String(shared?.height ?? ''),
    alt: shared?.alt ?? '',
    published: head.published ?? '',
    modified: head.modified ?? '',
  };
  return (
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <HeadFields site={site} assets={assets} shape={shape} v={values} />
      {thirdPartyScripts(site.thirdParty).map((s) => (
        <script key={s.key} src={s.src} async {...s.data}></script>
      ))}
      {head.jsonLd.map(jsonLdScript)}
    </head>
  );
}
