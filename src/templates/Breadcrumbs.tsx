import type { Crumb } from '../model/view.js';

function BreadcrumbsMarkup({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav className="breadcrumbs" aria-label="Breadcrumb">
      <ol>
        {crumbs.map((c, i) =>
          i === crumbs.length - 1 ? (
            <li key={i} aria-current="page">
              {c.name}
            </li>
          ) : (
            <li key={i}>
              <a href={c.path}>{c.name}</a>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** The trail to the current page; its last step is the page itself (not a link). */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  if (crumbs.length === 0) return null;
  return <BreadcrumbsMarkup crumbs={crumbs} />;
}
