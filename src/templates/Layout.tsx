/**
 * The document around every screen: head, skip link, the loading bar and
 * offline notice the browser code drives, header, main and footer.
 */
import type { ReactNode } from 'react';
import type { HeadData } from '../render/head.js';
import type { SiteModel } from '../render/model.js';
import { Footer } from './Footer.js';
import { Head } from './Head.js';
import { Header } from './Header.js';

export interface LayoutProps {
  model: SiteModel;
  head: HeadData;
  /** `data-screen` of <body>: the route's screen kind, `not-found` on the 404 page. */
  screen: string;
  /** Which main-navigation entry is current. */
  section: string;
  children: ReactNode;
}

export function Layout({ model, head, screen, section, children }: LayoutProps) {
  return (
    <html lang={model.site.language} data-online="true">
      <Head head={head} site={model.site} assets={model.assets} search={screen === 'search'} />
      <body data-screen={screen}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <div id="loading-bar" className="loading-bar" hidden></div>
        <div id="offline-notice" className="offline-notice" role="status" hidden>
          You are offline. Pages you have visited still work; inquiries are kept and sent when you are back online.
        </div>
        <Header model={model} section={section} />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <Footer model={model} />
      </body>
    </html>
  );
}
