import { describe, expect, test, vi } from 'vitest';
import { createSiteModel, findNav, guidesFor, navCategories, neighbours, relatedArticles, relatedProducts } from '../../src/model/model.js';
import { ASSETS, ID, fixtureCatalogue } from './fixture.js';

// Templates are JSX: see jsx-dev-shim.ts.
vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));

describe('createSiteModel', () => {
  const catalogue = fixtureCatalogue();
  const model = createSiteModel(catalogue, ASSETS);
  const names = (ps: Array<{ name: string }> | undefined) => ps?.map((p) => p.name);

  test('list membership: own category and listedIn, featured first then name; all lists everything', () => {
    expect(names(model.productsIn.get(ID.monomer))).toEqual(['Bulk Curcumin', 'Berberine Powder', 'Bulk Quercetin']);
    expect(names(model.productsIn.get(ID.herb))).toEqual(['Bulk Curcumin']);
    expect(names(model.productsIn.get(ID.all))).toEqual(['Bulk Curcumin', 'Berberine Powder', 'Bulk Quercetin', 'L-Valine Powder']);
    expect(model.productsIn.get(ID.api)).toEqual([]);
  });

  test('declared list pages: page 1 is the bare path when both exist', () => {
    expect(model.lists.get(ID.all)?.pages).toEqual([
      { page: 1, path: '/products' },
      { page: 2, path: '/products/page-2' },
    ]);
    expect(model.lists.get(ID.monomer)?.pages.map((p) => p.path)).toEqual(['/monomer/page-1', '/monomer/page-2']);
  });

  test('articles newest first, with neighbours', () => {
    expect(model.articlesNewestFirst.map((a) => a.slug)).toEqual(['quercetin-vs-rutin', 'what-is-curcumin', '-how-to-use-valine-']);
    const { prev, next } = neighbours(model.articlesNewestFirst, model.articleIndex, ID.a1);
    expect(prev?.slug).toBe('quercetin-vs-rutin');
    expect(next?.slug).toBe('-how-to-use-valine-');
    expect(neighbours(model.articlesNewestFirst, model.articleIndex, ID.a2).prev).toBeUndefined();
  });

  test('related products: named ones first, then the category; related articles both ways', () => {
    const curcumin = model.products.get(ID.curcumin)!;
    expect(names(relatedProducts(model, curcumin))).toEqual(['Berberine Powder', 'Bulk Quercetin']);
    expect(relatedArticles(model, curcumin).map((a) => a.slug)).toEqual(['what-is-curcumin']);
    const withRelated = { ...curcumin, relatedProducts: [ID.newer] };
    expect(names(relatedProducts(model, withRelated))).toEqual(['L-Valine Powder', 'Berberine Powder', 'Bulk Quercetin']);
  });

  test('navigation groups categories under their parent or category group, in order, to any depth', () => {
    expect(model.nav).toEqual([
      { id: ID.herb, name: 'Herb Extract', path: '/herb-extract', children: [{ id: ID.monomer, name: 'Monomer', path: '/monomer/page-1', children: [] }] },
      {
        id: ID.group,
        name: 'Nutrition',
        children: [
          { id: ID.amino, name: 'Amino Acid', path: '/amino-acid', children: [] },
          { id: ID.api, name: 'API', path: '/api', children: [] },
        ],
      },
    ]);
    const nested = fixtureCatalogue();
    nested.categories = nested.categories.map((c) => (c.id === ID.api ? { ...c, parentId: ID.amino } : c.id === ID.herb ? { ...c, parentId: ID.monomer } : c));
    const nav = createSiteModel(nested, ASSETS).nav;
    // API sits under Amino Acid under the group; a parent cycle (herb <-> monomer) still ends.
    expect(findNav(nav, ID.amino)?.children.map((c) => c.name)).toEqual(['API']);
    expect(navCategories(nav).map((c) => c.name)).toEqual(['Amino Acid', 'API']);
  });

  test('paths of screens and entities come from the registry', () => {
    expect(model.screenPath.get('contact')).toBe('/contact-us');
    expect(model.productPath.get(ID.newer)).toBe('/amino-acid/l-valine-powder');
    expect(model.newestDate).toBe('2025-01-01');
  });
});

describe('guidesFor', () => {
  test("one article for each of a page's products in turn, none twice, up to the limit", () => {
    const catalogue = fixtureCatalogue();
    const about: Record<string, string[]> = { [ID.curcumin]: [ID.a1, ID.a2], [ID.quercetin]: [ID.a2, ID.a3] };
    const products = catalogue.products.map((p) => ({ ...p, relatedArticles: about[p.id] ?? [] }));
    const model = createSiteModel({ ...catalogue, products }, ASSETS);
    const pick = (ids: string[], limit?: number) =>
      guidesFor(
        model,
        ids.map((id) => model.products.get(id)!),
        limit,
      ).map((a) => a.slug);
    // Round one: curcumin's first, quercetin's first (a2); round two: curcumin's a2 is taken, quercetin's a3.
    expect(pick([ID.curcumin, ID.quercetin, ID.berberine])).toEqual(['what-is-curcumin', 'quercetin-vs-rutin', '-how-to-use-valine-']);
    expect(pick([ID.curcumin, ID.quercetin], 2)).toEqual(['what-is-curcumin', 'quercetin-vs-rutin']);
    expect(pick([ID.quercetin, ID.curcumin])).toEqual(['quercetin-vs-rutin', 'what-is-curcumin', '-how-to-use-valine-']);
    expect(pick([ID.berberine])).toEqual([]);
    // An article that names the product comes before those the product names (what-is-curcumin names curcumin).
    const reversed = createSiteModel(
      { ...catalogue, products: products.map((p) => (p.id === ID.curcumin ? { ...p, relatedArticles: [ID.a2, ID.a1] } : p)) },
      ASSETS,
    );
    expect(guidesFor(reversed, [reversed.products.get(ID.curcumin)!]).map((a) => a.slug)).toEqual(['what-is-curcumin', 'quercetin-vs-rutin']);
    expect(pick([])).toEqual([]);
  });
});
