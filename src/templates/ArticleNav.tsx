import { Repeated } from './slots.js';

interface Link {
  title: string;
  href: string;
}

function ArticleNavMarkup({ label, prev, next }: { label: string; prev?: Link; next?: Link }) {
  return (
    <nav className="article-nav" aria-label={label}>
      {prev ? (
        <a href={prev.href} className="article-nav-prev">
          <span className="article-nav-label">Previous</span> {prev.title}
        </a>
      ) : null}
      {next ? (
        <a href={next.href} className="article-nav-next">
          <span className="article-nav-label">Next</span> {next.title}
        </a>
      ) : null}
    </nav>
  );
}

/**
 * Previous and next items of a newest-first list (newer first, then
 * older). A repeated piece with the links as values when both are site
 * paths (a value may not open a URL attribute unless it is one).
 */
export function ArticleNav({ label, prev, next }: { label: string; prev?: Link; next?: Link }) {
  if (!prev && !next) return null;
  if (![prev, next].every((l) => l === undefined || l.href.startsWith('/'))) return <ArticleNavMarkup label={label} prev={prev} next={next} />;
  return (
    <Repeated
      cacheKey={`article-nav\n${label}\n${prev ? 1 : 0}${next ? 1 : 0}`}
      values={[prev?.href ?? '', prev?.title ?? '', next?.href ?? '', next?.title ?? '']}
      render={([prevHref, prevTitle, nextHref, nextTitle]) => (
        <ArticleNavMarkup
          label={label}
          prev={prev ? { href: prevHref, title: prevTitle } : undefined}
          next={next ? { href: nextHref, title: nextTitle } : undefined}
        />
      )}
    />
  );
}
