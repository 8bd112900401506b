/**
 * The search page. Results are filled in by the search script (loaded only
 * here); the `/search/404` content waits hidden for a query with no results.
 */
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { PopularCategories } from './PopularCategories.js';
import type { ScreenProps } from './props.js';

export function SearchForm({ action, id }: { action: string; id: string }) {
  return (
    <form className="search-form search-page-form" role="search" action={action} method="get">
      <label htmlFor={id}>Search products, articles and news</label>
      <input type="search" id={id} name="q" maxLength={200} />
      <button type="submit" className="button button-primary">
        Search
      </button>
    </form>
  );
}

export function Search({ model, route, view, crumbs }: ScreenProps<'search'>) {
  const { page } = view;
  const notFound = model.pageOfKind.get('search-not-found');
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>{page.heading}</h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
      </header>
      <SearchForm action={route.path} id="search-q" />
      <div id="search-results" data-search-results="" aria-live="polite"></div>
      <div data-search-empty="" hidden>
        <h2>{notFound?.heading ?? 'Nothing found'}</h2>
        {notFound?.intro ? <p>{notFound.intro}</p> : null}
        <PopularCategories model={model} />
      </div>
      <noscript>
        <p>Search needs JavaScript. Browse the categories below or use the navigation.</p>
      </noscript>
      <Blocks blocks={page.body} />
    </div>
  );
}
