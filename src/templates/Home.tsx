/** Home: banners, trust points, featured categories and products, latest knowledge and news. */
import type { Category, Product } from '../core/schema.js';
import { responsive, screenHref } from '../model/model.js';
import { IMAGE_SIZES } from './image-sizes.js';
import { safeHref, trimToSentences } from '../model/text.js';
import { listHref } from '../model/view.js';
import { Blocks } from './Blocks.js';
import { ArticleCard, NewsCard, ProductCard } from './Cards.js';
import { InquireSecond } from './InquireSecond.js';
import type { ScreenProps } from './props.js';
import { Slider } from './Slider.js';

export function Home({ model, route, view }: ScreenProps<'home'>) {
  const { page } = view;
  const categories = page.featuredCategories.map((id) => model.categories.get(id)).filter((c): c is Category => c !== undefined);
  const featured = page.featuredProducts.map((id) => model.products.get(id)).filter((p): p is Product => p !== undefined);
  const products = featured.length > 0 ? featured : (model.productsIn.get(model.allCategory?.id ?? '') ?? []).slice(0, 8);
  const articles = model.articlesNewestFirst.slice(0, 3);
  const news = model.newsNewestFirst.slice(0, 3);
  const slides = page.banners.map((b, i) => {
    const href = safeHref(b.link);
    const img = b.image && safeHref(b.image.src);
    return (
      <div className="banner" key={i}>
        {b.image && img ? (
          <img
            src={img}
            {...responsive(model, img, IMAGE_SIZES.banner)}
            width={b.image.width}
            height={b.image.height}
            alt={b.image.alt}
            loading={i === 0 ? undefined : 'lazy'}
          />
        ) : null}
        <div className="banner-text">
          <p className="banner-heading">{b.heading}</p>
          {b.text ? <p>{b.text}</p> : null}
          {href ? (
            <a className="button button-primary" href={href}>
              {b.linkText}
            </a>
          ) : null}
        </div>
      </div>
    );
  });
  return (
    <>
      <section className="hero">
        <div className="container">
          <h1>{page.heading}</h1>
          {page.intro ? <p className="lead">{page.intro}</p> : null}
          <p className="hero-actions">
            <a className="button button-primary" href={listHref(model, model.allCategory?.id ?? '', screenHref(model, 'products'))}>
              Browse products
            </a>{' '}
            <a className="button" href={screenHref(model, 'contact')}>
              Ask for a quote
            </a>
          </p>
        </div>
      </section>
      <div className="container">
        <Slider label="Highlights" slides={slides} />
        {page.highlights.length > 0 ? (
          <section className="trust" aria-labelledby="trust-heading">
            <h2 id="trust-heading" className="visually-hidden">
              Why buyers choose us
            </h2>
            <ul className="trust-points">
              {page.highlights.map((h, i) => (
                <li key={i}>
                  <h3>{h.title}</h3>
                  <p>{h.text}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {categories.length > 0 ? (
          <section aria-labelledby="categories-heading">
            <h2 id="categories-heading">Product categories</h2>
            <ul className="category-grid">
              {categories.map((c) => (
                <li key={c.id} className="category-card">
                  <a href={listHref(model, c.id, c.path)}>
                    <h3>{c.name}</h3>
                  </a>
                  {/* Summaries run from one sentence to a paragraph; the grid's cards show the opening, evenly. */}
                  <p>{trimToSentences(c.summary, 160, 40)}</p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {products.length > 0 ? (
          <section aria-labelledby="products-heading">
            <h2 id="products-heading">Featured products</h2>
            <ul className="card-grid">
              {products.map((p, i) => (
                <ProductCard key={p.id} model={model} product={p} eager={i < 2} />
              ))}
            </ul>
          </section>
        ) : null}
        {articles.length > 0 ? (
          <section aria-labelledby="knowledge-heading">
            <h2 id="knowledge-heading">Latest from the knowledge library</h2>
            <ul className="card-grid">
              {articles.map((a) => (
                <ArticleCard key={a.id} model={model} article={a} />
              ))}
            </ul>
            <p>
              <a href={screenHref(model, 'knowledge')}>All knowledge articles</a>
            </p>
          </section>
        ) : null}
        {news.length > 0 ? (
          <section aria-labelledby="news-heading">
            <h2 id="news-heading">Company news</h2>
            <ul className="card-grid">
              {news.map((n) => (
                <NewsCard key={n.id} model={model} item={n} />
              ))}
            </ul>
            <p>
              <a href={screenHref(model, 'news')}>All news</a>
            </p>
          </section>
        ) : null}
        {page.body.length > 0 ? (
          <section className="prose">
            <Blocks blocks={page.body} />
          </section>
        ) : null}
        <InquireSecond action={model.site.inquiryEndpoint} page={route.path} />
      </div>
    </>
  );
}
