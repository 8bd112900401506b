/** The frame shared by the knowledge and news lists: heading with page number, intro, cards, pagination, then the page's own text. */
import type { ReactNode } from 'react';
import type { Page } from '../core/schema.js';
import type { Crumb } from '../model/view.js';
import type { ListPageRef } from '../model/model.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { Pagination } from './Pagination.js';

export function ContentList(props: {
  crumbs: readonly Crumb[];
  page: Page;
  pageNo: number;
  pages: readonly ListPageRef[];
  /** Said instead of the cards when this page of the list has none. */
  emptyText: string;
  cards: ReactNode[];
  children?: ReactNode;
}) {
  const { crumbs, page, pageNo, pages, emptyText, cards } = props;
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
      {cards.length > 0 ? <ul className="card-grid">{cards}</ul> : <p className="empty-state">{emptyText}</p>}
      <Pagination pages={pages} current={pageNo} />
      {/* After the list, not before it: the knowledge page's body is an index of 66 ingredients, which put its
          first article 3,600 px down the page. */}
      {pageNo === 1 && page.body.length > 0 ? (
        <div className="prose list-body">
          <Blocks blocks={page.body} />
        </div>
      ) : null}
      {props.children}
    </div>
  );
}
