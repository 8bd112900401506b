/**
 * Content-Type of a file of dist/ by its extension: what the build writes
 * (pages, bundles, images, fonts, feeds, the search index) and what a
 * catalogue links to (PDF data sheets). Anything else is sent as bytes.
 */
const TYPES: Readonly<Record<string, string>> = {
  html: 'text/html;charset=utf-8',
  htm: 'text/html;charset=utf-8',
  css: 'text/css',
  js: 'text/javascript',
  mjs: 'text/javascript',
  json: 'application/json',
  map: 'application/json',
  webmanifest: 'application/manifest+json',
  xml: 'text/xml',
  xsl: 'application/xml',
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/vnd.microsoft.icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  pdf: 'application/pdf',
  zip: 'application/zip',
  wasm: 'application/wasm',
  mp4: 'video/mp4',
  webm: 'video/webm',
};

export const FALLBACK_TYPE = 'application/octet-stream';

export function contentTypeOf(urlPath: string): string {
  const dot = urlPath.lastIndexOf('.');
  if (dot < urlPath.lastIndexOf('/')) return FALLBACK_TYPE;
  return TYPES[urlPath.slice(dot + 1).toLowerCase()] ?? FALLBACK_TYPE;
}
