/** The company page: who the supplier is, its trust points and story. */
import { screenHref } from '../model/model.js';
import { Blocks } from './Blocks.js';
import { Breadcrumbs } from './Breadcrumbs.js';
import type { ScreenProps } from './props.js';

export function About({ model, view, crumbs }: ScreenProps<'about'>) {
  const { page } = view;
  return (
    <div className="container">
      <Breadcrumbs crumbs={crumbs} />
      <header className="page-header">
        <h1>{page.heading}</h1>
        {page.intro ? <p className="lead">{page.intro}</p> : null}
      </header>
      {page.highlights.length > 0 ? (
        <ul className="trust-points">
          {page.highlights.map((h, i) => (
            <li key={i}>
              <h2>{h.title}</h2>
              <p>{h.text}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="prose">
        <Blocks blocks={page.body} />
      </div>
      <p>
        <a className="button button-primary" href={screenHref(model, 'contact')}>
          Contact our team
        </a>
      </p>
    </div>
  );
}
