/** The error pages (spec section 8): status text, message and a way home. */
import { screenHref, type SiteModel } from '../model/model.js';
import { PopularCategories } from './PopularCategories.js';

/** Spec section 8: any other error shows the error page with a status (default 500) and a message (default 'Error'). */
export const ERROR_PAGE_DEFAULTS = { status: 500, message: 'Error' } as const;

export function NotFound({ model }: { model: SiteModel }) {
  return (
    <div className="container narrow error-page">
      <p className="error-code">404</p>
      <h1>This page could not be found</h1>
      <p>
        <a className="button button-primary" href="/">
          Back to the home page
        </a>
      </p>
      <PopularCategories model={model} />
    </div>
  );
}

/**
 * The error page of every other failure: dist/500.html, which `site serve`
 * answers with when a request fails on its side, and which nginx can name in
 * `error_page 500 502 503 504 /500.html`.
 */
export function ErrorPage({
  model,
  status = ERROR_PAGE_DEFAULTS.status,
  message = ERROR_PAGE_DEFAULTS.message,
}: {
  model: SiteModel;
  status?: number;
  message?: string;
}) {
  return (
    <div className="container narrow error-page">
      <p className="error-code">{status}</p>
      <h1>{message}</h1>
      <p>
        Something went wrong on our side while showing this page. Please try again in a moment; if it keeps happening,{' '}
        <a href={screenHref(model, 'contact')}>tell us</a>.
      </p>
      <p>
        <a className="button button-primary" href="/">
          Back to the home page
        </a>
      </p>
    </div>
  );
}

/**
 * What the build writes when rendering the error page itself failed: no
 * model, no assets, nothing that could fail again.
 */
export function ErrorFallback() {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Error</title>
      </head>
      <body>
        <main>
          <h1>An error occurred while showing the error page</h1>
          <p>
            <a href="/">Go back to home</a>
          </p>
        </main>
      </body>
    </html>
  );
}
