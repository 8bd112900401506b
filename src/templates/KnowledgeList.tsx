/** The knowledge library, newest first, in pages. */
import { ArticleCard } from './Cards.js';
import { ContentList } from './ContentList.js';
import { InquireSecond } from './InquireSecond.js';
import type { ScreenProps } from './props.js';

export function KnowledgeList({ model, route, view, crumbs }: ScreenProps<'knowledge'>) {
  const { page, items, pageNo, list } = view;
  return (
    <ContentList
      crumbs={crumbs}
      page={page}
      pageNo={pageNo}
      pages={list.pages}
      emptyText="There are no articles on this page yet."
      cards={items.map((a) => <ArticleCard key={a.id} model={model} article={a} level={2} />)}
    >
      <InquireSecond action={model.site.inquiryEndpoint} page={route.path} />
    </ContentList>
  );
}
