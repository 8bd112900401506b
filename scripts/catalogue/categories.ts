/**
 * The 17 categories of spec section 3, their hierarchy and colours, and the
 * two shared parent ids (site.categoryGroups).
 */
import type { Category } from '../../src/core/schema.js';
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
  {
    slug: 'products',
    path: '/products',
    all: true,
    name: 'Products',
    parent: null,
    color: '#2f6f4f',
    pages: 24,
    summary:
      'Every plant extract, powder, protein, vitamin, amino acid and mushroom ingredient we supply in bulk from our GMP factory. Browse by category or page through the full list; every product ships with a certificate of analysis, in 1-10kg foil bags or 25kg drums, with free samples for evaluation.',
  },
  {
    slug: 'herb-extract',
    name: 'Herb Extract',
    parent: null,
    color: '#4f7d2c',
    pages: 13,
    summary:
      'Monomers, standardized and ratio extracts, shiitake, pueraria and mushroom extracts made from dried herbs in our GMP extraction plant. This list brings together every extract made from dried herbs and mushrooms, from 99% single compounds to 10:1 ratio extracts. Each is made from identified raw material and tested by TLC, UV or HPLC before release.',
  },
  {
    slug: 'monomer',
    name: 'Monomer',
    parent: 'herb-extract',
    color: '#8a5a1f',
    pages: 3,
    summary:
      'Single plant compounds purified to high assay by chromatography and recrystallisation, such as curcumin, quercetin and berberine. Monomers are the highest-purity grades we make, usually 95-99% by HPLC. They are used where a formula needs an exact dose of one compound, and as reference materials in laboratories.',
  },
  {
    slug: 'standardized-herbal-extract',
    name: 'Standardized Herbal Extract',
    parent: 'herb-extract',
    color: '#3d8c6e',
    pages: 6,
    summary:
      'Herbal extracts standardized by HPLC or UV to a stated content of their marker compound, batch after batch. Standardization means the marker content is the same in every lot, whatever the harvest, which lets brands print a consistent label claim. Our grades range from 1% DNJ mulberry leaf to 95% OPC grape seed.',
  },
  {
    slug: 'proportional-extract',
    name: 'Proportional Extract',
    parent: 'herb-extract',
    color: '#9c7c2e',
    pages: 3,
    summary:
      'Ratio extracts such as 10:1 and 20:1, concentrated from a fixed weight of dried herb and spray-dried to a fine powder. A ratio tells how many kilograms of dried herb went into one kilogram of extract. Ratio extracts keep the herb’s full spectrum of compounds and suit teas, traditional formulas and capsules.',
  },
  {
    slug: 'herb-powder',
    name: 'Herb Powder',
    parent: null,
    color: '#6b8e23',
    pages: 3,
    summary:
      'Dried and milled herbs, spices, seeds and grasses, sieved to a uniform mesh for capsules, blends and foods. Nothing is extracted or added: each powder is one dried plant part, steam-sterilised rather than irradiated and tested for microbes, heavy metals and pesticide residues.',
  },
  {
    slug: 'shitake-mushroom-extract',
    name: 'Shiitake Mushroom Extract',
    parent: 'herb-extract',
    color: '#7a4e2d',
    pages: 1,
    summary:
      'Lentinan and polypeptide extracts from the fruiting body of the shiitake mushroom, Lentinula edodes. Shiitake, Lentinula edodes, is grown on oak logs and sawdust blocks. We extract its fruiting bodies in hot water to concentrate the beta-glucan lentinan, and hydrolyse its protein into soluble polypeptides with a savoury taste. Both grades suit capsules, drinks and functional foods, and are tested for polysaccharides or peptides, heavy metals and microbes on every lot. Lentinan is among the most studied mushroom beta-glucans, and shiitake peptides add umami to soups and seasonings. Both are made in our GMP factory.',
  },
  {
    slug: 'pueraria-extract',
    name: 'Pueraria Extract',
    parent: 'herb-extract',
    color: '#a0527a',
    pages: 1,
    summary:
      'Puerarin, flavonoid and root-powder grades from Pueraria lobata and Pueraria mirifica roots. Two different plants share the name pueraria: kudzu, Pueraria lobata, the source of puerarin and isoflavones studied for circulation and after-drinking comfort, and Pueraria mirifica from Thailand, used at small doses in women’s health and skin-care products. We supply both, from 98% puerarin to root powder, with identity confirmed by HPLC so the two species are never confused.',
  },
  {
    slug: 'protein-powder',
    name: 'Protein Powder',
    parent: null,
    color: '#c08a3e',
    pages: 2,
    summary:
      'Plant and seed proteins from pea, rice, oat, potato, pumpkin seed, wheat, corn, peanut, almond and yeast. Protein content is tested by Kjeldahl on every lot, along with heavy metals and microbes. The list also includes nut and yeast protein powders from our fruit and vegetable range. Pea and rice proteins pair well because their amino acid profiles complement each other; potato protein whips like egg white; wheat gluten strengthens dough; hydrolysed wheat and corn peptides dissolve clear in drinks. Free samples are available for recipe trials, and bulk orders ship in 25kg bags or drums. Every protein powder is free of hexane, and allergen statements are supplied with each specification. Particle size, solubility and taste differ from one protein to the next, so our application team can suggest blends for shakes, bars, bakery or meat alternatives.',
  },
  {
    slug: 'health-food-ingredients',
    name: 'Health Food Ingredients',
    parent: null,
    color: '#2e7fa3',
    pages: 5,
    summary:
      'Vitamins, amino acids and nutritional supplement ingredients for tablets, capsules, powders and drinks. This list combines our vitamins, amino acids and nutritional supplement ingredients, all tested against pharmacopoeia or food chemicals monographs where one exists.',
  },
  {
    slug: 'vitamin',
    name: 'Vitamin',
    parent: 'health-food-ingredients',
    color: '#e0a21b',
    pages: 2,
    summary:
      'B vitamins, vitamins A, C, D3, E and K2 in food and feed grades, as pure powders or stabilised beadlets. Vitamins are dosed in milligrams or micrograms, so we offer diluted premixes and coated beadlets that blend evenly and stay stable in tablets, capsules and fortified foods. The range covers the B vitamins from thiamine to cobalamin, vitamin C as ascorbic acid, vitamins A, D3 and E as stabilised powders and vitamin K2 as MK-7 from natto fermentation. Each lot is tested for assay and identity against the USP, EP or BP monograph. Custom vitamin premixes can be blended to your formula and tested as one lot.',
  },
  {
    slug: 'amino-acid',
    name: 'Amino Acid',
    parent: 0,
    color: '#5a6fb0',
    pages: 2,
    summary:
      'Fermentation-grade L-amino acids such as arginine, lysine, leucine, theanine and citrulline. Our amino acids are made by fermentation of plant sugars, not by hydrolysis of hair or feathers, so they suit vegan products. Each lot is tested for assay, specific rotation and heavy metals against USP or AJI monographs, and instantized grades are available for drinks. Common uses are sports drinks and pre-workout blends (leucine, citrulline, arginine), sleep and calm formulas (theanine, tryptophan), feed premixes (lysine, threonine) and skin care (serine, proline). Ask for free samples of any grade. Stock grades ship in 25kg drums within 1-2 working days, with an MOQ of 1-5kg. Our laboratory checks specific rotation on every lot, because only the L-form is used by the body for protein, and D-form contamination is a sign of a poorly controlled process. Certificates list assay, rotation, loss on drying, heavy metals and microbial counts.',
  },
  {
    slug: 'nutritional-supplements',
    name: 'Nutritional Supplements',
    parent: 0,
    color: '#3c9c9c',
    pages: 3,
    summary:
      'Creatine, BCAA, NMN, inulin, lecithin, coenzyme Q10, sweeteners and other raw materials for supplement makers. These are the raw materials behind many best-selling supplements: sports ingredients, healthy-ageing compounds, fibres, phospholipids and sugar replacers, each with its own specification and COA.',
  },
  {
    slug: 'api-and-intermediate',
    name: 'API and Intermediate',
    parent: 0,
    color: '#6d5d8f',
    pages: 1,
    summary:
      'Reference compounds and intermediates isolated from plants for research and pharmaceutical development. This area groups our active pharmaceutical ingredients and research intermediates. Intermediates are isolated from plants such as sun spurge and safflower pollen by repeated chromatography, with identity confirmed by NMR and mass spectrometry and purity by HPLC. Active pharmaceutical ingredients are handled under separate documentation and supplied only to licensed buyers.',
  },
  {
    slug: 'api',
    name: 'API',
    parent: 'api-and-intermediate',
    color: '#80607a',
    pages: 0,
    summary:
      'Active pharmaceutical ingredients supplied on request with full documentation; ask us for the current list. Active pharmaceutical ingredients are supplied only to licensed manufacturers and research institutions, with the documentation their regulators require: a drug master file where one exists, a certificate of analysis for each lot, stability data and a statement of the production site. Because the list of available substances changes with registrations, we do not publish it here. Please contact our regulatory team with the substance, the grade and the quantity you need, and we will reply with availability, documents and lead time within one working day. Typical requests come from generic manufacturers, contract research organisations and universities. We answer every inquiry individually rather than through a public price list. Documents are sent under a confidentiality agreement where the registration requires it.',
  },
  {
    slug: 'intermediate',
    name: 'Intermediate',
    parent: 'api-and-intermediate',
    color: '#8f6d5d',
    pages: 1,
    summary:
      'Diterpenoid and spermidine intermediates from Euphorbia and related plants, for research use. Each lot is isolated by solvent extraction and repeated column chromatography, then finished by preparative HPLC. We supply the HPLC chromatogram with every lot, and NMR and mass spectra on request, so laboratories can confirm the structure before use. Research lots ship in amber glass under nitrogen.',
  },
  {
    slug: 'mushroom-extract',
    name: 'Mushroom Extract',
    parent: 1,
    color: '#8b5e3c',
    pages: 2,
    summary:
      'Beta-glucan rich extracts of reishi, lion’s mane, chaga, cordyceps, maitake, turkey tail and other mushrooms. We extract fruiting bodies, not mycelium on grain, so our extracts carry no starch filler; the list also includes our certified organic mushroom extracts.',
  },
  {
    slug: 'organic-mushroom-extract',
    name: 'Organic Mushroom Extract',
    parent: 1,
    color: '#5e7d3c',
    pages: 1,
    summary:
      'Certified organic mushroom extracts from fruiting bodies grown on logs and natural substrates. Each is made from fruiting bodies grown under organic rules and extracted with hot water only, for brands that carry organic claims on mushroom coffees, teas and capsules.',
  },
  {
    slug: 'fruit-and-vegetable-powder',
    name: 'Fruit and Vegetable Powder',
    parent: 1,
    color: '#d2553f',
    pages: 3,
    summary:
      'Spray-dried and freeze-dried fruit, vegetable, tea and nut powders for drinks, bakery and supplements. Freeze-dried grades keep colour and aroma best; spray-dried grades dissolve fastest. All are tested for microbes and pesticide residues before packing in lined foil bags.',
  },
];

export function buildCategories(): Category[] {
  return CATEGORY_ROWS.map((row, order): Category => {
    const parentId = row.parent === null ? null : typeof row.parent === 'number' ? GROUPS[row.parent].id : categoryId(row.parent);
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
