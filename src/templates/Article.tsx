/** A knowledge article: headline, date, category, author, body, related products, previous and next. */
import type { Article as ArticleData, Product } from '../core/schema.js';
import { articleHref, neighbours } from '../model/model.js';
import { formatDate } from '../model/text.js';
import { ArticleNav } from './ArticleNav.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { RelatedProducts } from './Cards.js';
import { InquireSecond } from './InquireSecond.js';
import type { ScreenProps } from './props.js';
import { Share } from './Share.js';

/** Category, headline, byline and dates (the update date when it differs from the publication date). */
function ArticleHeader({ article }: { article: ArticleData }) {
  const updated = article.updated && article.updated !== article.date ? article.updated : '';
  return (
    <header className="article-header">
      <p className="eyebrow">{article.category}</p>
      <h1>{article.headline}</h1>
      <p className="article-meta">
        By {article.author} · Published <time dateTime={article.date}>{formatDate(article.date)}</time>
        {updated ? (
          <>
            {' '}
            · Updated <time dateTime={updated}>{formatDate(updated)}</time>
          </>
        ) : null}
      </p>
    </header>
  );
}

export function Article({ model, route, view, head, crumbs }: ScreenProps<'article'>) {
  const { article } = view;
  const products = article.relatedProducts.map((id) => model.products.get(id)).filter((p): p is Product => p !== undefined);
  const { prev, next } = neighbours(model.articlesNewestFirst, model.articleIndex, article.id);
  const link = (a: typeof prev) => (a ? { title: a.headline, href: articleHref(model, a) } : undefined);
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <article className="article">
        <ArticleHeader article={article} />
        <div className="prose">
          <Blocks blocks={article.body} />
        </div>
        <Share url={head.canonical} title={article.headline} />
      </article>
      <RelatedProducts model={model} products={products} />
      <ArticleNav label="More articles" prev={link(prev)} next={link(next)} />
      <InquireSecond action={model.site.inquiryEndpoint} page={route.path} product={products[0]?.name} />
    </div>
  );
}
