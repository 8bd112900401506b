/** Company news, newest first. */
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { NewsCard } from './Cards.js';
import { Pagination } from './Pagination.js';
import type { ScreenProps } from './props.js';

export function NewsList({ model, view, crumbs }: ScreenProps<'news'>) {
  const { page, items, pageNo, list } = view;
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>
          {page.heading}
          {pageNo > 1 ? <span className="page-no"> – page {pageNo}</span> : null}
        </h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
      </header>
      {pageNo === 1 && page.body.length > 0 ? (
        <div className="prose">
          <Blocks blocks={page.body} />
        </div>
      ) : null}
      {items.length > 0 ? (
        <ul className="card-grid">
          {items.map((n) => (
            <NewsCard key={n.id} model={model} item={n} level={2} />
          ))}
        </ul>
      ) : (
        <p className="empty-state">There is no news on this page yet.</p>
      )}
      <Pagination pages={list.pages} current={pageNo} />
    </div>
  );
}
