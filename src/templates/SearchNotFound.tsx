/** `/search/404`: no results, with another search and popular categories. */
import { screenHref } from '../model/model.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { PopularCategories } from './PopularCategories.js';
import type { ScreenProps } from './props.js';
import { SearchForm } from './Search.js';

export function SearchNotFound({ model, view, crumbs }: ScreenProps<'search-not-found'>) {
  const { page } = view;
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>{page.heading}</h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
      </header>
      <SearchForm action={screenHref(model, 'search')} id="search-q" />
      <PopularCategories model={model} />
      <Blocks blocks={page.body} />
    </div>
  );
}
