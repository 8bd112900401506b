/** What a crawl adds to the audit report (AuditReport.crawl). */
import type { Hop } from './redirects.js';

/** One URL of the crawl as the report shows it. */
export interface CrawlRow {
  url: string;
  via: string[];
  status: number | null;
  error?: string;
  redirects: Hop[];
  finalUrl: string;
  contentType: string | null;
  headers: Record<string, string>;
  bytes: number;
  referrers: number;
  firstReferrer: string | null;
}

export interface CrawlSection {
  start: string;
  origin: string;
  base: string;
  /** The origin the site declares, whose URLs were mapped onto the crawled one. */
  siteOrigin: string;
  robots: string | null;
  robotsObeyed: boolean;
  sitemaps: string[];
  notFound: { url: string; status: number | null; redirects: Hop[] };
  pagesRead: number;
  skippedForMaxPages: number;
  urls: CrawlRow[];
}
