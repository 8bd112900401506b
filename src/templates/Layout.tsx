/**
 * The document around every screen: head, skip link, the loading bar and
 * offline notice the browser code drives, header, main and footer.
 */
import type { ReactNode } from 'react';
import type { HeadData } from '../model/head.js';
import type { SiteModel } from '../model/model.js';
import { Head } from './Head.js';

/**
 * Header and footer are the same on thousands of pages, so the render stage
 * renders them (the header with PageTop) once per site model and puts them
 * where these empty <template> slots stand. Content cannot forge a slot: React escapes every
 * `<` in text and attributes, and JSON-LD writes it as \u003c.
 */
export const SLOT = { header: '<template data-slot="header"></template>', footer: '<template data-slot="footer"></template>' } as const;
const Slot = ({ name }: { name: keyof typeof SLOT }) => <template data-slot={name}></template>;

/**
 * What every page shows before the header: skip link, the loading bar and
 * the offline notice. Rendered with the header, once per model, in the header's slot.
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
  children: ReactNode;
}

export function Layout({ model, head, screen, children }: LayoutProps) {
  return (
    <html lang={model.site.language} data-online="true">
      <Head head={head} site={model.site} assets={model.assets} search={screen === 'search'} />
      <body data-screen={screen}>
        <Slot name="header" />
        <main id="main" tabIndex={-1}>
          {children}
        </main>
        <Slot name="footer" />
      </body>
    </html>
  );
}
