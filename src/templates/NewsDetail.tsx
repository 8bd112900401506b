/** A news item: title, date, image, body, previous and next. */
import { neighbours, newsHref, responsive } from '../model/model.js';
import { IMAGE_SIZES } from './image-sizes.js';
import { formatDate, safeHref } from '../model/text.js';
import { ArticleNav } from './ArticleNav.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import { InquireSecond } from './InquireSecond.js';
import type { ScreenProps } from './props.js';
import { Share } from './Share.js';

export function NewsDetail({ model, route, view, head, crumbs }: ScreenProps<'news-detail'>) {
  const { item } = view;
  const { prev, next } = neighbours(model.newsNewestFirst, model.newsIndex, item.id);
  const link = (n: typeof prev) => (n ? { title: n.title, href: newsHref(model, n) } : undefined);
  const src = item.image ? safeHref(item.image.src) : null;
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <article className="article">
        <header className="article-header">
          <p className="eyebrow">News</p>
          <h1>{item.title}</h1>
          <p className="article-meta">
            <time dateTime={item.date}>{formatDate(item.date)}</time>
          </p>
        </header>
        {item.image && src ? (
          <img
            className="article-image"
            src={src}
            {...responsive(model, src, IMAGE_SIZES.article)}
            width={item.image.width}
            height={item.image.height}
            alt={item.image.alt}
          />
        ) : null}
        <div className="prose">
          <Blocks blocks={item.body} />
        </div>
        <Share url={head.canonical} title={item.title} />
      </article>
      <ArticleNav label="More news" prev={link(prev)} next={link(next)} />
      <InquireSecond action={model.site.inquiryEndpoint} page={route.path} />
    </div>
  );
}
