/** Company news, newest first. */
import { NewsCard } from './Cards.js';
import { ContentList } from './ContentList.js';
import type { ScreenProps } from './props.js';

export function NewsList({ model, view, crumbs }: ScreenProps<'news'>) {
  const { page, items, pageNo, list } = view;
  return (
    <ContentList
      crumbs={crumbs}
      page={page}
      pageNo={pageNo}
      pages={list.pages}
      emptyText="There is no news on this page yet."
      cards={items.map((n) => <NewsCard key={n.id} model={model} item={n} level={2} />)}
    />
  );
}
