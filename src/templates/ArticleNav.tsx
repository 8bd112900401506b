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

/** Previous and next items of a newest-first list (newer first, then older). */
export function ArticleNav({ label, prev, next }: { label: string; prev?: Link; next?: Link }) {
  if (!prev && !next) return null;
  return <ArticleNavMarkup label={label} prev={prev} next={next} />;
}
