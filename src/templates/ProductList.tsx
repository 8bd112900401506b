/** All products, a category, and their paged lists. An empty category says so and offers contact. */
import { findNav, guidesFor, screenHref, type NavNode } from '../model/model.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { ListGuides, ProductCard } from './Cards.js';
import { InquireSecond } from './InquireSecond.js';
import { Pagination } from './Pagination.js';
import { PopularCategories } from './PopularCategories.js';
import type { ScreenProps } from './props.js';

/** The categories of the navigation tree with a list of their own, in its order (groups without one are skipped). */
function everyCategory(nav: readonly NavNode[]): NavNode[] {
  return nav.flatMap((n) => [...(n.path === undefined ? [] : [n]), ...everyCategory(n.children)]);
}

export function ProductList({ model, route, view, crumbs }: ScreenProps<'products' | 'category'>) {
  const { category, items, pageNo, list } = view;
  // The list of all products has no place in the category tree: its chips are every category, so that its
  // "browse by category" has somewhere to go.
  const sub = view.screen === 'products' ? everyCategory(model.nav) : (findNav(model.nav, category.id)?.children ?? []);
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>
          {category.name}
          {pageNo > 1 ? <span className="page-no"> – page {pageNo}</span> : null}
        </h1>
        {category.summary ? <p className="lead">{category.summary}</p> : null}
        {sub.length > 0 ? (
          <ul className="chips" aria-label={`Categories in ${category.name}`}>
            {sub.map((c) => (
              <li key={c.id}>
                <a href={c.path}>{c.name}</a>
              </li>
            ))}
          </ul>
        ) : null}
      </header>
      {items.length > 0 ? (
        <ul className="card-grid">
          {items.map((p, i) => (
            <ProductCard key={p.id} model={model} product={p} level={2} eager={i < 2} />
          ))}
        </ul>
      ) : (
        <div className="empty-state">
          <p>{view.total === 0 ? `No products are listed under ${category.name} yet.` : `There are no products on page ${pageNo} of ${category.name}.`}</p>
          <p>
            We make many ingredients to order. <a href={screenHref(model, 'contact')}>Contact us</a> with the product you need and we will quote it.
          </p>
          <PopularCategories model={model} />
        </div>
      )}
      <Pagination pages={list.pages} current={pageNo} />
      <ListGuides model={model} articles={guidesFor(model, items)} />
      <InquireSecond action={model.site.inquiryEndpoint} page={route.path} />
    </div>
  );
}
