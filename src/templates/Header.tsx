/**
 * Site header: brand, search form and navigation of all categories. The
 * category menu is a <details>, so it opens on any screen without JavaScript.
 */
import { LOGO_MARK } from '../model/artwork.js';
import { type NavNode, type SiteModel, screenHref } from '../model/model.js';

export function Logo() {
  return (
    <svg className="logo-mark" width="32" height="32" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="16" fill={LOGO_MARK.background} />
      <path d={LOGO_MARK.path} fill={LOGO_MARK.leaf} />
    </svg>
  );
}

/** A magnifier: on a phone the search button shows only this, its word kept for screen readers (styles.css). */
function SearchIcon() {
  return (
    <svg className="search-icon" width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <circle cx="8.5" cy="8.5" r="6" fill="none" stroke="currentColor" strokeWidth="2.2" />
      <path d="M13 13l5 5" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
    </svg>
  );
}

/** Categories under a navigation group, nested as deep as the catalogue goes. */
function NavList({ nodes }: { nodes: readonly NavNode[] }) {
  if (nodes.length === 0) return null;
  return (
    <ul>
      {nodes.map((n) => (
        <li key={n.id}>
          {n.path ? <a href={n.path}>{n.name}</a> : n.name}
          <NavList nodes={n.children} />
        </li>
      ))}
    </ul>
  );
}

export function Header({ model, section }: { model: SiteModel; section: string }) {
  const { site } = model;
  const current = (name: string) => (name === section ? ({ 'aria-current': 'page' } as const) : {});
  const allProducts = model.allCategory;
  return (
    <header className="site-header">
      <div className="container header-bar">
        <a className="brand" href={screenHref(model, 'home')}>
          <Logo />
          <span className="brand-name">{site.brand}</span>
        </a>
        <form className="search-form" role="search" action={screenHref(model, 'search')} method="get">
          <label htmlFor="site-search" className="visually-hidden">
            Search products and articles
          </label>
          <input type="search" id="site-search" name="q" placeholder="e.g. curcumin" maxLength={200} />
          <button type="submit" className="button search-button">
            <SearchIcon />
            <span className="search-button-text">Search</span>
          </button>
        </form>
      </div>
      <nav className="site-nav" aria-label="Main">
        <ul className="container nav-main">
          <li>
            <a href={screenHref(model, 'home')} {...current('home')}>
              Home
            </a>
          </li>
          <li className="nav-products">
            <details>
              <summary {...(section === 'products' ? { className: 'is-current' } : {})}>Products</summary>
              <div className="nav-panel">
                {allProducts ? (
                  <p className="nav-all">
                    <a href={model.lists.get(allProducts.id)?.pages[0]?.path ?? allProducts.path}>All {allProducts.name.toLowerCase()}</a>
                  </p>
                ) : null}
                <ul className="nav-groups">
                  {model.nav.map((group) => (
                    <li key={group.id}>
                      {group.path ? (
                        <a className="nav-group-title" href={group.path}>
                          {group.name}
                        </a>
                      ) : (
                        <span className="nav-group-title">{group.name}</span>
                      )}
                      <NavList nodes={group.children} />
                    </li>
                  ))}
                </ul>
              </div>
            </details>
          </li>
          <li>
            <a href={screenHref(model, 'knowledge')} {...current('knowledge')}>
              Knowledge
            </a>
          </li>
          <li>
            <a href={screenHref(model, 'news')} {...current('news')}>
              News
            </a>
          </li>
          <li>
            <a href={screenHref(model, 'about')} {...current('about')}>
              About us
            </a>
          </li>
          <li className="nav-contact">
            <a href={screenHref(model, 'contact')} className="nav-cta" {...current('contact')}>
              Contact us
            </a>
          </li>
          {/* Shown by the browser code (inquiry-list.ts) once the buyer has listed a product. */}
          <li className="nav-inquiry-list" data-inquiry-list-link="" hidden>
            <a href={`${screenHref(model, 'contact')}#inquiry-list`}>
              Inquiry list (<span data-inquiry-list-count="">0</span>)
            </a>
          </li>
        </ul>
      </nav>
    </header>
  );
}
