/** After an inquiry: confirmation and where to go next. */
import { screenHref } from '../model/model.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import type { ScreenProps } from './props.js';
import { listHref } from '../model/view.js';

export function Thanks({ model, view, crumbs }: ScreenProps<'thanks'>) {
  const { page } = view;
  const all = model.allCategory;
  return (
    <div className="container narrow">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>{page.heading}</h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
      </header>
      <div className="prose">
        <Blocks blocks={page.body} />
      </div>
      <p className="hero-actions">
        <a className="button button-primary" href={screenHref(model, 'home')}>
          Back to the home page
        </a>{' '}
        <a className="button" href={all ? listHref(model, all.id, all.path) : screenHref(model, 'products')}>
          Browse products
        </a>
      </p>
    </div>
  );
}
