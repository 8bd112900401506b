/**
 * Cards of products, articles and news in grids and related lists. A card
 * is the same wherever it is listed, so each is a repeated piece keyed by
 * its entity; eager product cards are not (React announces their image in
 * <head>, which a reused template would not).
 */
import type { ReactNode } from 'react';
import type { Article, NewsItem, Product } from '../core/schema.js';
import { productImage } from '../model/head.js';
import { type SiteModel, articleHref, newsHref, productHref, responsive } from '../model/model.js';
import { IMAGE_SIZES } from './image-sizes.js';
import { formatDate, safeHref } from '../model/text.js';

type Level = 2 | 3;
const title = (level: Level, text: string) => (level === 2 ? <h2 className="card-title">{text}</h2> : <h3 className="card-title">{text}</h3>);

function ProductCardMarkup({ model, product, level, eager }: { model: SiteModel; product: Product; level: Level; eager: boolean }) {
  const img = productImage(product);
  return (
    <li className="card product-card">
      <a className="card-link" href={productHref(model, product)}>
        <img
          src={img.url}
          {...responsive(model, img.url, IMAGE_SIZES.productCard)}
          width={img.width}
          height={img.height}
          alt=""
          loading={eager ? undefined : 'lazy'}
          decoding="async"
        />
        {title(level, product.name)}
      </a>
      <p className="card-meta">{product.specification}</p>
      <p className="card-text">{product.summary}</p>
    </li>
  );
}

/** Cards above the fold load eagerly (they may be the largest paint); the rest lazily. */
export function ProductCard({ model, product, level = 3, eager = false }: { model: SiteModel; product: Product; level?: Level; eager?: boolean }) {
  if (eager) return <ProductCardMarkup model={model} product={product} level={level} eager />;
  return <ProductCardMarkup model={model} product={product} level={level} eager={false} />;
}

function ArticleCardMarkup({ model, article, level }: { model: SiteModel; article: Article; level: Level }) {
  return (
    <li className="card article-card">
      <p className="card-meta">
        <time dateTime={article.date}>{formatDate(article.date)}</time> · {article.category}
      </p>
      <a className="card-link" href={articleHref(model, article)}>
        {title(level, article.headline)}
      </a>
      <p className="card-text">{article.summary}</p>
    </li>
  );
}

export function ArticleCard({ model, article, level = 3 }: { model: SiteModel; article: Article; level?: Level }) {
  return <ArticleCardMarkup model={model} article={article} level={level} />;
}

function NewsCardMarkup({ model, item, level }: { model: SiteModel; item: NewsItem; level: Level }) {
  const src = item.image ? safeHref(item.image.src) : null;
  return (
    <li className="card news-card">
      <a className="card-link" href={newsHref(model, item)}>
        {item.image && src ? (
          <img
            src={src}
            {...responsive(model, src, IMAGE_SIZES.newsCard)}
            width={item.image.width}
            height={item.image.height}
            alt=""
            loading="lazy"
            decoding="async"
          />
        ) : null}
        {title(level, item.title)}
      </a>
      <p className="card-meta">
        <time dateTime={item.date}>{formatDate(item.date)}</time>
      </p>
      <p className="card-text">{item.summary}</p>
    </li>
  );
}

export function NewsCard({ model, item, level = 3 }: { model: SiteModel; item: NewsItem; level?: Level }) {
  return <NewsCardMarkup model={model} item={item} level={level} />;
}

/** A section of related items: a heading and their cards. */
function RelatedSection<T extends { id: string }>({
  kind,
  title,
  items,
  card,
}: {
  kind: string;
  title: string;
  items: readonly T[];
  card: (item: T) => ReactNode;
}) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby={`related-${kind}-heading`}>
      <h2 id={`related-${kind}-heading`}>{title}</h2>
      <ul className="card-grid">{items.map(card)}</ul>
    </section>
  );
}

/** Related products of a product or an article. */
export function RelatedProducts({ model, products }: { model: SiteModel; products: readonly Product[] }) {
  return <RelatedSection kind="products" title="Related products" items={products} card={(p) => <ProductCard key={p.id} model={model} product={p} />} />;
}

/** Related articles of a product. */
export function RelatedArticles({ model, articles }: { model: SiteModel; articles: readonly Article[] }) {
  return <RelatedSection kind="articles" title="Related articles" items={articles} card={(a) => <ArticleCard key={a.id} model={model} article={a} />} />;
}

/** Articles for the products of a page of a product list (guidesFor in model/model.ts). */
export function ListGuides({ model, articles }: { model: SiteModel; articles: readonly Article[] }) {
  return <RelatedSection kind="guides" title="From our Knowledge Center" items={articles} card={(a) => <ArticleCard key={a.id} model={model} article={a} />} />;
}
