/**
 * The document around every screen: head, skip link, the loading bar and
 * offline notice the browser code drives, header, main and footer.
 */
import type { ReactNode } from 'react';
import type { HeadData } from '../model/head.js';
import type { SiteModel } from '../model/model.js';
import { Head } from './Head.js';

/**
 * What every page shows before the header: skip link, the loading bar and
 * the offline notice. The render stage puts it with the header.
 */
export function PageTop() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div id="loading-bar" className="loading-bar" hidden></div>
      <div id="offline-notice" className="offline-notice" role="status" hidden>
        You are offline. Pages you have visited still work; inquiries are kept and sent when you are back online.
      </div>
    </>
  );
}

export interface LayoutProps {
  model: SiteModel;
  head: HeadData;
  /** `data-screen` of <body>: the route's screen kind, `not-found` on the 404 page. */
  screen: string;
  /** The header (with PageTop) and the footer: the render stage gives them (see render/page.tsx). */
  header: ReactNode;
  footer: ReactNode;
  children: ReactNode;
}

export function Layout({ model, head, screen, header, footer, children }: LayoutProps) {
  return (
    <html lang={model.site.language} data-online="true">
      <Head head={head} site={model.site} assets={model.assets} search={screen === 'search'} />
      <body data-screen={screen}>
        {header}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        {footer}
      </body>
    </html>
  );
}
