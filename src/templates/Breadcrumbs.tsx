import type { Crumb } from '../model/view.js';
import { Repeated } from './slots.js';

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

/**
 * The trail to the current page; its last step is the page itself (not a
 * link). Every article or product of one category shares the steps before
 * it, so the trail is a repeated piece with the page's name as its value.
 */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  if (crumbs.length === 0) return null;
  const before = crumbs.slice(0, -1);
  const here = crumbs[crumbs.length - 1];
  return (
    <Repeated
      cacheKey={`crumbs\n${JSON.stringify(before.map((c) => [c.name, c.path]))}`}
      values={[here.name]}
      render={([name]) => <BreadcrumbsMarkup crumbs={[...before, { name, path: here.path }]} />}
    />
  );
}
