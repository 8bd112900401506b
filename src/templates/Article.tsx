/** A knowledge article: headline, date, category, author, body, related products, previous and next. */
import type { Product } from '../load/schema.js';
import { articleHref, neighbours } from '../render/model.js';
import { formatDate } from '../render/text.js';
import { ArticleNav } from './ArticleNav.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { ProductCard } from './Cards.js';
import { InquireSecond } from './InquireSecond.js';
import type { ScreenProps } from './props.js';
import { Share } from './Share.js';

export function Article({ model, route, view, head, crumbs }: ScreenProps<'article'>) {
  const { article } = view;
  const products = article.relatedProducts.map((id) => model.products.get(id)).filter((p): p is Product => p !== undefined);
  const { prev, next } = neighbours(model.articlesNewestFirst, model.articleIndex, article.id);
  const link = (a: typeof prev) => (a ? { title: a.headline, href: articleHref(model, a) } : undefined);
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <article className="article">
        <header className="article-header">
          <p className="eyebrow">{article.category}</p>
          <h1>{article.headline}</h1>
          <p className="article-meta">
            By {article.author} · Published <time dateTime={article.date}>{formatDate(article.date)}</time>
            {article.updated && article.updated !== article.date ? (
              <>
                {' '}
                · Updated <time dateTime={article.updated}>{formatDate(article.updated)}</time>
              </>
            ) : null}
          </p>
        </header>
        <div className="prose">
          <Blocks blocks={article.body} />
        </div>
        <Share url={head.canonical} title={article.headline} />
      </article>
      {products.length > 0 ? (
        <section aria-labelledby="related-products-heading">
          <h2 id="related-products-heading">Related products</h2>
          <ul className="card-grid">
            {products.map((p) => (
              <ProductCard key={p.id} model={model} product={p} />
            ))}
          </ul>
        </section>
      ) : null}
      <ArticleNav label="More articles" prev={link(prev)} next={link(next)} />
      <InquireSecond action={model.site.inquiryEndpoint} page={route.path} product={products[0]?.name} />
    </div>
  );
}
