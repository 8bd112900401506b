/**
 * The 17 categories of spec section 3, their hierarchy and colours, and the
 * two shared parent ids (site.categoryGroups).
 */
import type { Category } from '../../src/load/schema.js';
import { nodeIdFor } from './util.js';

export const categoryId = (slug: string): string => nodeIdFor(`category:${slug}`);

/**
 * Both shared parent ids are groups, not categories. The first could have been
 * health-food-ingredients' own id, but api-and-intermediate shares it and is not
 * listed on /health-food-ingredients (5 pages = vitamin + amino acid + nutritional
 * only), so making that category the parent would make its tree disagree with its list.
 */
export const GROUPS = [
  { id: nodeIdFor('group:nutrition-and-api'), name: 'Nutrition, Amino Acid and API Ingredients' },
  { id: nodeIdFor('group:mushroom-and-fruit-vegetable'), name: 'Mushroom and Fruit and Vegetable Products' },
] as const;

interface CategoryRow {
  slug: string;
  name: string;
  /** A category slug, a group index, or null for top level. */
  parent: string | 0 | 1 | null;
  color: string;
  summary: string;
  /** Path when it is not `/{slug}`. */
  path?: string;
  all?: boolean;
  /** Spec section 2: number of list pages; 0 = bare list only. */
  pages: number;
}

export const CATEGORY_ROWS: readonly CategoryRow[] = [
  { slug: 'products', path: '/products', all: true, name: 'Products', parent: null, color: '#2f6f4f', pages: 24,
    summary: 'Every plant extract, powder, protein, vitamin, amino acid and mushroom ingredient we supply in bulk from our GMP factory.' },
  { slug: 'herb-extract', name: 'Herb Extract', parent: null, color: '#4f7d2c', pages: 13,
    summary: 'Monomers, standardized and ratio extracts, shiitake and pueraria extracts, and mushroom extracts made from dried herbs in our GMP extraction plant.' },
  { slug: 'monomer', name: 'Monomer', parent: 'herb-extract', color: '#8a5a1f', pages: 3,
    summary: 'Single plant compounds purified to high assay by chromatography and recrystallisation, such as curcumin, quercetin and berberine.' },
  { slug: 'standardized-herbal-extract', name: 'Standardized Herbal Extract', parent: 'herb-extract', color: '#3d8c6e', pages: 6,
    summary: 'Herbal extracts standardized by HPLC or UV to a stated content of their marker compound, batch after batch.' },
  { slug: 'proportional-extract', name: 'Proportional Extract', parent: 'herb-extract', color: '#9c7c2e', pages: 3,
    summary: 'Ratio extracts such as 10:1 and 20:1, concentrated from a fixed weight of dried herb and spray-dried to a fine powder.' },
  { slug: 'herb-powder', name: 'Herb Powder', parent: null, color: '#6b8e23', pages: 3,
    summary: 'Dried and milled herbs, spices, seeds and grasses, sieved to a uniform mesh for capsules, blends and foods.' },
  { slug: 'shitake-mushroom-extract', name: 'Shiitake Mushroom Extract', parent: 'herb-extract', color: '#7a4e2d', pages: 1,
    summary: 'Lentinan and polypeptide extracts from the fruiting body of the shiitake mushroom, Lentinula edodes.' },
  { slug: 'pueraria-extract', name: 'Pueraria Extract', parent: 'herb-extract', color: '#a0527a', pages: 1,
    summary: 'Puerarin, flavonoid and root-powder grades from Pueraria lobata and Pueraria mirifica roots.' },
  { slug: 'protein-powder', name: 'Protein Powder', parent: null, color: '#c08a3e', pages: 2,
    summary: 'Plant and seed proteins from pea, rice, oat, potato, pumpkin seed, wheat, corn, peanut, almond and yeast.' },
  { slug: 'health-food-ingredients', name: 'Health Food Ingredients', parent: null, color: '#2e7fa3', pages: 5,
    summary: 'Vitamins, amino acids and nutritional supplement ingredients for tablets, capsules, powders and drinks.' },
  { slug: 'vitamin', name: 'Vitamin', parent: 'health-food-ingredients', color: '#e0a21b', pages: 2,
    summary: 'B vitamins, vitamins A, C, D3, E and K2 in food and feed grades, as pure powders or stabilised beadlets.' },
  { slug: 'amino-acid', name: 'Amino Acid', parent: 0, color: '#5a6fb0', pages: 2,
    summary: 'Fermentation-grade L-amino acids such as arginine, lysine, leucine, theanine and citrulline.' },
  { slug: 'nutritional-supplements', name: 'Nutritional Supplements', parent: 0, color: '#3c9c9c', pages: 3,
    summary: 'Creatine, BCAA, NMN, inulin, lecithin, coenzyme Q10, sweeteners and other raw materials for supplement makers.' },
  { slug: 'api-and-intermediate', name: 'API and Intermediate', parent: 0, color: '#6d5d8f', pages: 1,
    summary: 'Reference compounds and intermediates isolated from plants for research and pharmaceutical development.' },
  { slug: 'api', name: 'API', parent: 'api-and-intermediate', color: '#80607a', pages: 0,
    summary: 'Active pharmaceutical ingredients supplied on request with full documentation; ask us for the current list.' },
  { slug: 'intermediate', name: 'Intermediate', parent: 'api-and-intermediate', color: '#8f6d5d', pages: 1,
    summary: 'Diterpenoid and spermidine intermediates from Euphorbia and related plants, for research use.' },
  { slug: 'mushroom-extract', name: 'Mushroom Extract', parent: 1, color: '#8b5e3c', pages: 2,
    summary: 'Beta-glucan rich extracts of reishi, lion’s mane, chaga, cordyceps, maitake, turkey tail and other mushrooms.' },
  { slug: 'organic-mushroom-extract', name: 'Organic Mushroom Extract', parent: 1, color: '#5e7d3c', pages: 1,
    summary: 'Certified organic mushroom extracts from fruiting bodies grown on logs and natural substrates.' },
  { slug: 'fruit-and-vegetable-powder', name: 'Fruit and Vegetable Powder', parent: 1, color: '#d2553f', pages: 3,
    summary: 'Spray-dried and freeze-dried fruit, vegetable, tea and nut powders for drinks, bakery and supplements.' },
];

export function buildCategories(): Category[] {
  return CATEGORY_ROWS.map((row, order): Category => {
    const parentId =
      row.parent === null ? null : typeof row.parent === 'number' ? GROUPS[row.parent].id : categoryId(row.parent);
    const c: Category = {
      id: categoryId(row.slug),
      slug: row.slug,
      path: row.path ?? `/${row.slug}`,
      name: row.name,
      parentId,
      order: order + 1,
      summary: row.summary,
      color: row.color,
    };
    if (row.all) c.all = true;
    return c;
  });
}

/**
 * Extra lists a category shows beyond its own products (spec section 2 page
 * counts are the truth): key = list category, value = product categories or
 * product slugs whose members it also lists.
 */
export const EXTRA_LISTINGS: Record<string, { categories?: string[]; products?: string[] }> = {
  'herb-extract': {
    categories: ['monomer', 'standardized-herbal-extract', 'proportional-extract', 'shitake-mushroom-extract', 'pueraria-extract', 'mushroom-extract'],
  },
  'protein-powder': {
    products: ['pure-peanut-protein-powder', 'pure-almond-protein-powder', 'hydrolyzed-yeast-protein-powder', 'hydrolyzed-corn-powder'],
  },
  'health-food-ingredients': { categories: ['vitamin', 'amino-acid', 'nutritional-supplements'] },
  'api-and-intermediate': { categories: ['intermediate'] },
  'mushroom-extract': { categories: ['organic-mushroom-extract'] },
};
