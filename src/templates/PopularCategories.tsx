/** Where to go next when a visitor is lost: 404, search without results, empty lists. */
import type { SiteModel } from '../model/model.js';
import { listHref } from '../model/view.js';

export function PopularCategories({ model, heading = 'Popular categories' }: { model: SiteModel; heading?: string }) {
  if (model.popularCategories.length === 0) return null;
  return (
    <section className="popular-categories" aria-label={heading}>
      <h2>{heading}</h2>
      <ul className="chips">
        {model.popularCategories.map((c) => (
          <li key={c.id}>
            <a href={listHref(model, c.id, c.path)}>{c.name}</a>
          </li>
        ))}
      </ul>
    </section>
  );
}
