/**
 * A product: gallery, attributes table, description, applications, calls to
 * action (each preselects its inquiry type), the Inquire form with the
 * product filled in, related products and articles.
 */
import { INQUIRY_TYPE_LABELS, type InquiryType } from '../core/inquiry-types.js';
import { productImage, type OgImage } from '../model/head.js';
import { relatedArticles, relatedProducts, screenHref } from '../model/model.js';
import { safeHref } from '../model/text.js';
import { listHref } from '../model/view.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { RelatedArticles, RelatedProducts } from './Cards.js';
import { Gallery } from './Gallery.js';
import { Inquire } from './Inquire.js';
import type { ScreenProps } from './props.js';
import { Share } from './Share.js';

const CTAS: InquiryType[] = ['quote', 'custom-quote', 'free-sample', 'private-label', 'bulk-wholesale'];

/** The attributes table; its labels name the piece, its values fill it in. */
function AttributesTable({ rows }: { rows: ReadonlyArray<readonly [string, string]> }) {
  return (
    <table className="attributes">
      <caption className="visually-hidden">Product attributes</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * One button per inquiry type; the same on every product with (or without) a
 * free sample. Each leads to the form on this page, and the browser code
 * (inquiry-choice.ts) makes its choice there. A plain fragment, not
 * `?type=…`: five query URLs per product would be crawled as duplicates of it.
 */
function CallsToAction({ freeSample }: { freeSample: boolean }) {
  return (
    <ul className="cta-list">
      {CTAS.filter((t) => t !== 'free-sample' || freeSample).map((t, i) => (
        <li key={t}>
          <a className={i === 0 ? 'button button-primary' : 'button'} href="#inquire" data-inquiry-type={t}>
            {INQUIRY_TYPE_LABELS[t]}
          </a>
        </li>
      ))}
    </ul>
  );
}

/**
 * On a phone the calls to action sit below the gallery and the attributes, a
 * long scroll down, and the form further still: this bar keeps the two that
 * buyers use most at the bottom of the screen (styles.css shows it on narrow
 * screens only; cta-bar.ts hides it while the buttons or the form are in view).
 */
function QuickInquiry({ freeSample }: { freeSample: boolean }) {
  const second: InquiryType = freeSample ? 'free-sample' : 'custom-quote';
  return (
    <div className="cta-bar" data-cta-bar="">
      <a className="button button-primary" href="#inquire" data-inquiry-type="quote">
        {INQUIRY_TYPE_LABELS.quote}
      </a>
      <a className="button" href="#inquire" data-inquiry-type={second}>
        {INQUIRY_TYPE_LABELS[second]}
      </a>
    </div>
  );
}

export function ProductDetail({ model, route, view, head, crumbs }: ScreenProps<'product'>) {
  const { product, category } = view;
  const images: OgImage[] = product.images
    .map((img) => ({ img, src: safeHref(img.src) }))
    .filter((x): x is { img: (typeof product.images)[number]; src: string } => x.src !== null)
    .map(({ img, src }) => ({ url: src, width: img.width, height: img.height, alt: img.alt || product.name }));
  const gallery = images.length > 0 ? images : [productImage(product)];
  const rows: Array<[string, string]> = [
    ['Product name', product.name],
    ...(product.latinName.trim() ? [['Latin name', product.latinName] as [string, string]] : []),
    ['Specification / assay', product.specification],
    ['Appearance', product.appearance],
    ['Certifications', product.certifications.join(', ') || 'On request'],
    ['Package', product.package.join('; ')],
    ['Delivery', product.delivery],
    ['MOQ', product.moq],
    ['Free sample', product.freeSample ? 'Yes' : 'On request'],
  ];
  const related = relatedProducts(model, product);
  const articles = relatedArticles(model, product);
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <article className="product">
        {/* The heading comes first in the document (on a phone, above the artwork); wider screens place it beside the gallery. */}
        <div className="product-top">
          <div className="product-heading">
            <p className="eyebrow">
              <a href={listHref(model, category.id, category.path)}>{category.name}</a>
            </p>
            <h1>{product.name}</h1>
            {product.latinName.trim() ? (
              <p className="latin">
                <i>{product.latinName}</i>
              </p>
            ) : null}
          </div>
          <Gallery model={model} images={gallery} />
          <div className="product-summary">
            <p className="lead">{product.summary}</p>
            <AttributesTable rows={rows} />
            <CallsToAction freeSample={product.freeSample} />
            {/* Shown by the browser code (inquiry-list.ts): collect products to ask about in one message. */}
            <p className="inquiry-list-add" hidden>
              <button type="button" className="button" data-inquiry-list-add="" data-name={product.name} data-url={route.path} aria-pressed="false">
                Add to inquiry list
              </button>{' '}
              {/* Beside the button too: on a phone the menu's entry is at the far end of its row. */}
              <a href={`${screenHref(model, 'contact')}#inquiry-list`} data-inquiry-list-link="" hidden>
                View the list (<span data-inquiry-list-count="">0</span>)
              </a>
            </p>
          </div>
        </div>
        <section className="prose" aria-labelledby="description-heading">
          <h2 id="description-heading">Description</h2>
          <Blocks blocks={product.description} />
        </section>
        {product.claims.length > 0 ? (
          <section className="prose" aria-labelledby="key-facts-heading">
            <h2 id="key-facts-heading">Key facts</h2>
            <ul className="claims">
              {product.claims.map((c, i) => (
                <li key={i}>{c}</li>
              ))}
            </ul>
          </section>
        ) : null}
        {product.applications.length > 0 ? (
          <section className="prose" aria-labelledby="applications-heading">
            <h2 id="applications-heading">Applications</h2>
            <ul>
              {product.applications.map((a, i) => (
                <li key={i}>{a}</li>
              ))}
            </ul>
          </section>
        ) : null}
        <Share url={head.canonical} title={product.name} print />
      </article>
      <Inquire action={model.site.inquiryEndpoint} page={route.path} product={product.name} type="quote" heading={`Inquire about ${product.name}`} />
      <RelatedProducts model={model} products={related} />
      <RelatedArticles model={model} articles={articles} />
      <QuickInquiry freeSample={product.freeSample} />
    </div>
  );
}
