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
import { Repeated } from './slots.js';

/** Category, headline, byline and dates: one template for articles with an update date, one for those without. */
function ArticleHeader({ article }: { article: ArticleData }) {
  const updated = article.updated && article.updated !== article.date ? article.updated : '';
  return (
    <Repeated
      cacheKey={`article-header\n${updated ? 1 : 0}`}
      values={[article.category, article.headline, article.author, article.date, formatDate(article.date), updated, updated ? formatDate(updated) : '']}
      render={([category, headline, author, date, dateText, updatedDate, updatedText]) => (
        <header className="article-header">
          <p className="eyebrow">{category}</p>
          <h1>{headline}</h1>
          <p className="article-meta">
            By {author} · Published <time dateTime={date}>{dateText}</time>
            {updated ? (
              <>
                {' '}
                · Updated <time dateTime={updatedDate}>{updatedText}</time>
              </>
            ) : null}
          </p>
        </header>
      )}
    />
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
