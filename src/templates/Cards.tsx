/** Cards of products, articles and news in grids and related lists. */
import type { Article, NewsItem, Product } from '../load/schema.js';
import { productImage } from '../render/head.js';
import { type SiteModel, articleHref, newsHref, productHref } from '../render/model.js';
import { formatDate, safeHref } from '../render/text.js';

type Level = 2 | 3;
const Title = ({ level, children }: { level: Level; children: string }) =>
  level === 2 ? <h2 className="card-title">{children}</h2> : <h3 className="card-title">{children}</h3>;

/** Cards above the fold load eagerly (they may be the largest paint); the rest lazily. */
export function ProductCard({ model, product, level = 3, eager = false }: { model: SiteModel; product: Product; level?: Level; eager?: boolean }) {
  const img = productImage(product);
  return (
    <li className="card product-card">
      <a className="card-link" href={productHref(model, product)}>
        <img src={img.url} width={img.width} height={img.height} alt="" loading={eager ? undefined : 'lazy'} decoding="async" />
        <Title level={level}>{product.name}</Title>
      </a>
      <p className="card-meta">{product.specification}</p>
      <p className="card-text">{product.summary}</p>
    </li>
  );
}

export function ArticleCard({ model, article, level = 3 }: { model: SiteModel; article: Article; level?: Level }) {
  return (
    <li className="card article-card">
      <p className="card-meta">
        <time dateTime={article.date}>{formatDate(article.date)}</time> · {article.category}
      </p>
      <a className="card-link" href={articleHref(model, article)}>
        <Title level={level}>{article.headline}</Title>
      </a>
      <p className="card-text">{article.summary}</p>
    </li>
  );
}

export function NewsCard({ model, item, level = 3 }: { model: SiteModel; item: NewsItem; level?: Level }) {
  const src = item.image ? safeHref(item.image.src) : null;
  return (
    <li className="card news-card">
      <a className="card-link" href={newsHref(model, item)}>
        {item.image && src ? <img src={src} width={item.image.width} height={item.image.height} alt="" loading="lazy" decoding="async" /> : null}
        <Title level={level}>{item.title}</Title>
      </a>
      <p className="card-meta">
        <time dateTime={item.date}>{formatDate(item.date)}</time>
      </p>
      <p className="card-text">{item.summary}</p>
    </li>
  );
}
