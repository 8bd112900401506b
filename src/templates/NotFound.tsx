/** The 404 page (spec section 8): status text, message and a way home. */
import type { SiteModel } from '../render/model.js';
import { PopularCategories } from './PopularCategories.js';

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
