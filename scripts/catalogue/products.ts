/**
 * Products: parses the fact table and composes each product's page text from
 * its own facts, so that no two product pages read alike (the audit flags thin
 * and near-duplicate pages).
 */
import type { Block, Product } from '../../src/core/schema.js';
import { categoryId } from './categories.js';
import { APPLICATIONS, APP_PHRASES, PRODUCT_TABLE } from './product-table.js';
import { addDays, cap, joinList, mid, nodeIdFor, pick, prng } from './util.js';

export interface ProductRow {
  slug: string;
  name: string;
  latin: string;
  spec: string;
  appearance: string;
  part: string;
  apps: string[];
  about: string;
  category: string;
}

export function parseProductTable(): ProductRow[] {
  const rows: ProductRow[] = [];
  for (const [category, text] of Object.entries(PRODUCT_TABLE)) {
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const cols = line.split(' | ').map((c) => c.trim());
      if (cols.length !== 8) throw new Error(`product table (${category}): expected 8 columns, got ${cols.length}: ${line}`);
      const [slug, name, latin, spec, appearance, part, apps, about] = cols;
      const codes = apps.split(',');
      for (const c of codes) if (!APPLICATIONS[c]) throw new Error(`product table: unknown application code "${c}" on ${slug}`);
      rows.push({ slug, name, latin, spec, appearance, part, apps: codes, about, category });
    }
  }
  return rows;
}

/** The spec's one detail route whose node id is a name, not a hex id. */
export const NAMED_NODE_PRODUCT = 'cordyceps-extract-powder';

export const productId = (slug: string): string => (slug === NAMED_NODE_PRODUCT ? slug : nodeIdFor(`product:${slug}`));

/** Spec section 9 claims, on the products they belong to. */
export const CLAIMS: Record<string, string[]> = {
  'stephania-extract': ['Stephania extract with 99% cepharanthine by HPLC.'],
  'bulk-curcumin': ['Curcumin content of at least 95% (total curcuminoids by HPLC).'],
  'soybean-seed-extract': ['Soy isoflavones in 20%, 40%, 60% and 80% grades.'],
  'white-willow-bark-extract': ['White willow bark extract standardized to 15% salicin.'],
  'grape-seed-extract': ['Grape seed extract with 95% OPC.'],
  'mulberry-leaf-extract': ['Mulberry leaf extract with 1% DNJ (1-deoxynojirimycin).'],
};

/** Flagship products shown first in their lists and on the home page. */
export const FEATURED = new Set([
  'bulk-curcumin',
  'berberine-powder-bulk',
  'bulk-quercetin',
  'stephania-extract',
  'lentinus-edodes-extract',
  'puerarin-extract',
  'grape-seed-extract',
  'pueraria-root-extract',
  'lentinan-extract',
  'pea-protein-powder',
  'bulk-nmn-powder',
  'bulk-creatine-monohydrate-powder',
  'reishi-mushroom-extract-powder',
  'lion-s-mane-mushroom-extract',
  'vitamin-c-powder',
  'l-theanine-powder',
  'matcha-powder',
  'fisetin-powder',
]);

const SYNTHETIC_PARTS = new Set(['synthesis', 'fermentation', 'blending', 'enzymatic synthesis', 'corn fermentation']);

const METHOD_TEST: Record<string, string> = {
  HPLC: 'high-performance liquid chromatography (HPLC) against a certified reference standard',
  UV: 'UV-visible spectrophotometry',
  TLC: 'thin-layer chromatography (TLC) for identity, with the ratio documented from the batch record',
  GC: 'gas chromatography (GC)',
  Kjeldahl: 'the Kjeldahl method (nitrogen x 6.25, dry basis)',
  DMAC: 'the DMAC colorimetric method',
  AOAC: 'the AOAC enzymatic method',
};

function testMethod(spec: string): string {
  for (const [key, text] of Object.entries(METHOD_TEST)) if (spec.includes(key)) return text;
  if (/USP|EP|BP|FCC|AJI/.test(spec)) return 'the methods of the cited pharmacopoeia or food chemicals monograph';
  if (/mesh/.test(spec)) return 'sieve analysis for particle size, with microscopy for identity';
  return 'in-house methods validated for this product';
}

/** How it is made: one paragraph per category family, three phrasings each. */
function methodText(row: ProductRow, rand: () => number): string {
  const { name, latin, part, spec } = row;
  const ratio = /(\d+):1/.exec(spec);
  switch (row.category) {
    case 'monomer':
      return pick(rand, [
        `Production starts from the dried ${part} of ${endSentence(latin)} After extraction, the crude liquor passes through macroporous resin and silica columns, and the target compound is recrystallised until the assay reaches ${spec}.`,
        `To reach ${spec}, the ${part} is extracted with food-grade ethanol, the extract is purified on resin columns and the compound is crystallised two or three times before vacuum drying at low temperature.`,
        `A single compound at this purity cannot be pressed out of the ${part}; it is isolated step by step: solvent extraction, resin adsorption, chromatography and crystallisation, each step checked by HPLC.`,
      ]);
    case 'standardized-herbal-extract':
    case 'pueraria-extract':
    case 'shitake-mushroom-extract':
      return pick(rand, [
        `We extract the dried ${part} with water or aqueous ethanol at a controlled temperature, concentrate the liquid under vacuum and spray-dry it, then standardize the powder to ${spec}.`,
        `Each lot starts with identified ${part} of ${latin}, checked by TLC against a reference herb. Extraction, vacuum concentration and spray drying follow, and the marker content is adjusted to ${spec} before release.`,
        `Standardization means the buyer gets the same marker content every time: the ${part} is extracted, the concentrate assayed, and the dried powder blended to ${spec}, whatever the harvest year brought.`,
      ]);
    case 'proportional-extract': {
      const r = ratio ? Number(ratio[1]) : 10;
      return pick(rand, [
        `${spec.split(' ')[0]} is a ratio, not an assay: about ${r} kilograms of dried ${part} are extracted to make one kilogram of ${mid(name)}. The extract is concentrated under vacuum and spray-dried on a minimal carrier.`,
        `For the ${r}:1 grade we extract ${r} kg of dried ${part} with hot water, concentrate it and spray-dry it. The ratio is recorded for every batch, and TLC confirms the herb’s identity against a reference sample.`,
        `A proportional extract keeps the whole spectrum of the ${part} rather than one marker: ${r} parts of dried herb give one part of powder, made by hot-water extraction, vacuum concentration and spray drying.`,
      ]);
    }
    case 'herb-powder':
      return pick(rand, [
        `The dried ${part} is cleaned of stones and foreign matter, steam-sterilised rather than irradiated, milled and sieved to ${spec.split(',')[0]}. Nothing is extracted or added: it is the whole plant part, milled.`,
        `Our herb powders are single-ingredient: ${part} of ${latin}, sorted, washed where needed, dried below 60 °C, steam-treated to bring microbial counts down, and milled to ${spec.split(',')[0]}.`,
        `Whole ${part} is dried, milled in a cooled mill to protect the aroma and sieved to ${spec.split(',')[0]}; steam sterilisation keeps the total plate count within food limits without irradiation.`,
      ]);
    case 'protein-powder':
      return pick(rand, [
        `Protein content is measured by Kjeldahl on a dry basis for every lot. The ${part} is separated by wet milling, the protein is precipitated or concentrated, neutralised and spray-dried into a free-flowing powder.`,
        `The protein is separated from the ${part} without hexane, concentrated by membrane filtration or precipitation, pasteurised and spray-dried. Each lot is tested for protein, moisture, ash, fat and microbial counts.`,
        `Plant protein quality depends on gentle processing: we separate the protein from the ${part} at moderate temperatures, pasteurise it and spray-dry it, keeping solubility and a neutral taste.`,
      ]);
    case 'vitamin':
      return pick(rand, [
        `Every lot is tested against the ${/USP|BP|EP/.exec(spec)?.[0] ?? 'USP'} monograph: identity, assay, loss on drying, heavy metals and related substances. Diluted grades are blended on validated equipment and tested for content uniformity.`,
        `Vitamins are dosed in milligrams or micrograms, so uniformity matters as much as purity: we test assay and identity on every lot and, for diluted grades, the spread between samples from different drums.`,
        `The ${mid(name)} we ship is sourced from ${part === 'synthesis' ? 'established chemical synthesis lines' : part} and re-tested in our laboratory on arrival for assay, identity and heavy metals before it is repacked or blended.`,
      ]);
    case 'amino-acid':
      return pick(rand, [
        `It is produced by fermentation of corn-derived glucose with a selected Corynebacterium or E. coli strain, then separated, decolourised with activated carbon and crystallised; the crystals meet ${spec}.`,
        `Fermentation grade amino acids are the L-form the body uses. After fermentation the broth is filtered, the amino acid is recovered by ion exchange and crystallised, then dried and sieved.`,
        `Our ${mid(name)} is a fermentation product, not a hydrolysate of hair or feathers; it is vegan, made without animal raw materials, and tested for assay, specific rotation and heavy metals.`,
      ]);
    case 'intermediate':
      return pick(rand, [
        `It is isolated from the dried ${part} of ${latin} by solvent extraction and repeated column chromatography; identity is confirmed by NMR and mass spectrometry and purity by HPLC.`,
        `As a research compound it is made in small lots: extraction of ${latin}, fractionation on silica and reversed-phase columns, and final purification by preparative HPLC to ${spec}.`,
        `Each lot is supplied with its HPLC chromatogram and NMR and MS spectra, so that laboratories can confirm the structure before use.`,
      ]);
    case 'mushroom-extract':
    case 'organic-mushroom-extract':
      return pick(rand, [
        `We use the ${part} only, not mycelium on grain, so the extract contains no starch filler. The dried mushroom is milled, extracted in hot water for several hours, concentrated and spray-dried.`,
        `Mushroom cell walls are made of chitin, which the body cannot digest; hot-water extraction breaks them open and releases the beta-glucans that a plain mushroom powder would keep locked away.`,
        `Extraction takes place in hot water, with an ethanol step where triterpenes matter; the liquid is concentrated under vacuum and spray-dried, and the polysaccharide content is checked by UV.`,
      ]);
    case 'nutritional-supplements':
      return SYNTHETIC_PARTS.has(part)
        ? pick(rand, [
            `It is produced by ${part === 'blending' ? 'blending tested ingredients to a written formula' : part}, purified, dried and tested against ${spec} for every lot, with residual solvents and heavy metals on the certificate.`,
            `Because this is a high-purity ingredient used by weight, we check assay, identity, loss on drying and particle size on every lot, and keep a retained sample for two years.`,
            `The raw material passes identity and assay tests on arrival; after sieving and, where needed, milling to the requested mesh, the lot is tested again before release.`,
          ])
        : pick(rand, [
            `It is made from ${part}, purified and dried to ${spec}; every lot is tested for assay, moisture, heavy metals and microbial counts.`,
            `Our ${mid(name)} comes from ${part}. The process is validated in our GMP factory, and the specification of ${spec} is confirmed in our laboratory before shipment.`,
            `Starting from ${part}, the ingredient is purified, concentrated and dried; the assay of ${spec} and the residue limits are checked lot by lot.`,
          ]);
    default:
      return pick(rand, [
        `Fresh ${part} is washed, sorted, pulped or sliced and then spray-dried or freeze-dried, depending on the grade, before sieving to ${spec.split(',')[0]}.`,
        `We dry the ${part} of ${latin} with the least heat the grade allows: freeze-drying keeps colour and aroma best, spray-drying gives a finer, more soluble powder.`,
        `The ${part} is processed within hours of arriving at the plant; after drying the powder is sieved, metal-detected and packed in lined bags to protect it from moisture.`,
      ]);
  }
}

const QUALITY = [
  'Every batch is made in our GMP factory and lab-tested for assay, heavy metals (lead, arsenic, cadmium, mercury), pesticide residues and microbial counts; the certificate of analysis travels with the goods.',
  'Lab-tested purity is the point: our in-house laboratory tests each lot for identity, assay, moisture, heavy metals and microbiology, and third-party laboratories confirm key lots.',
  'Quality control follows the lot from raw material to drum. Incoming material is identified, the process is recorded, and the finished powder is tested in our laboratory before a COA is issued.',
  'We keep a retained sample of every lot and issue a COA with assay, loss on drying, heavy metals, residual solvents and microbial limits; MSDS and specification sheets are available on request.',
];

const SUPPLY = [
  (p: ProductRow) =>
    `We pack ${p.name} in 1-10kg foil bags or 25kg drums and dispatch in 1-2 working days from stock. The MOQ is 1-5kg, a free sample is available for evaluation, and bulk wholesale prices apply to larger orders.`,
  (_: ProductRow) =>
    `Ask for a free sample before you order. Standard packing is a 1-10kg foil bag or a 25kg fibre drum with double PE liners; the MOQ is 1-5kg and stock lots ship in 1-2 working days.`,
  (p: ProductRow) =>
    `For bulk and wholesale buyers we offer 25kg drums; for trials and smaller runs, 1-10kg foil bags. Orders from the MOQ of 1-5kg ship within 1-2 working days, and a free sample of ${mid(p.name)} is available.`,
  (_: ProductRow) =>
    `Delivery takes 1-2 working days for stock lots. Choose 1-10kg foil bags or 25kg drums, start from an MOQ of 1-5kg, and request a free sample, a custom quote or private labelling through the inquiry form.`,
];

/** Research compounds ship in small lots first; the kilogram terms apply to scale-up orders. */
const researchSupply = (p: ProductRow): string =>
  `Research quantities of ${p.name} are packed in amber glass vials under nitrogen; for scale-up we pack 1-10kg foil bags or 25kg drums, with an MOQ of 1-5kg and dispatch in 1-2 working days. A free sample is available to qualified laboratories.`;

const CERTIFICATIONS = ['ISO9001', 'ISO22000', 'HALAL', 'KOSHER'];
const PACKAGE = ['1-10kg foil bag', '25kg drum'];

/** "a powder" / "an orange-yellow powder". */
const article = (phrase: string): string => (/^[aeio]/i.test(phrase) ? `an ${phrase}` : `a ${phrase}`);

/** Latin names end in an author abbreviation ("L."); never follow it with a second full stop. */
const endSentence = (s: string): string => (s.endsWith('.') ? s : `${s}.`);

export function productBlocks(row: ProductRow): Block[] {
  const rand = prng(`product-text:${row.slug}`);
  const blocks: Block[] = [];
  blocks.push({ type: 'heading', level: 2, text: `About ${row.name}` });
  blocks.push({ type: 'paragraph', text: row.about });
  const latinPart = row.latin === '' ? '' : ` (${row.latin})`;
  blocks.push({
    type: 'paragraph',
    text: pick(rand, [
      `Our ${mid(row.name)}${latinPart} is supplied as ${article(row.appearance.toLowerCase())} with a specification of ${row.spec}.`,
      `We supply ${row.name}${latinPart} to the specification ${row.spec}; it is ${article(row.appearance.toLowerCase())}.`,
      `Specification: ${row.spec}. ${row.name}${latinPart} leaves our factory as ${article(row.appearance.toLowerCase())}.`,
    ]),
  });
  blocks.push({ type: 'paragraph', text: `${row.name} goes into ${joinList(row.apps.map((c) => APP_PHRASES[c]))}.` });
  blocks.push({ type: 'heading', level: 2, text: 'How it is made' });
  blocks.push({ type: 'paragraph', text: methodText(row, rand) });
  // The commercial terms (certifications, package, delivery, MOQ, sample), the key facts and the applications are
  // the page's own sections, rendered from the product's fields: repeated here they showed twice on every product
  // page. What the description adds is the analysis a buyer's QC compares a COA with.
  blocks.push({ type: 'heading', level: 2, text: 'Specifications' });
  blocks.push({
    type: 'table',
    caption: `${row.name}: typical certificate of analysis`,
    head: ['Item', 'Specification', 'Method'],
    rows: [
      ['Assay', row.spec, cap(testMethod(row.spec))],
      ['Appearance', row.appearance, 'Visual'],
      ['Source', cap(row.part), 'Identity test'],
      ['Loss on drying', '≤ 5.0%', 'Oven drying, 105 °C'],
      ['Heavy metals', '≤ 10 ppm (lead ≤ 2 ppm, arsenic ≤ 1 ppm)', 'ICP-MS'],
      ['Total plate count', '≤ 1,000 cfu/g', 'Plate count'],
      ['Yeast and mould', '≤ 100 cfu/g', 'Plate count'],
      ['E. coli and Salmonella', 'Negative', 'Culture'],
    ],
  });
  blocks.push({ type: 'heading', level: 2, text: 'Quality, packing and delivery' });
  blocks.push({ type: 'paragraph', text: pick(rand, QUALITY) });
  blocks.push({ type: 'paragraph', text: row.category === 'intermediate' ? researchSupply(row) : pick(rand, SUPPLY)(row) });
  return blocks;
}

/**
 * The ingredient's defining fact, short enough for a card. Not the name and
 * specification: the card and the page print both right above it, and began
 * their text by saying them again.
 */
export function productSummary(row: ProductRow): string {
  const fact = row.about.length <= 170 ? row.about.replace(/\.$/, '') : row.about.split(/;|, which|\. /)[0].replace(/\.$/, '');
  return `${fact}.`;
}

export interface ProductContext {
  /** Articles that name this product, newest first. */
  articlesFor(productSlug: string): string[];
  /** Fallback articles by category slug. */
  articlesForCategory(categorySlug: string): string[];
  listedIn(row: ProductRow): string[];
  updated(row: ProductRow): string;
  /** Products per list page (site.itemsPerPage.products). */
  perPage: number;
}

/** The list order of docs/CONTRACTS.md (featured first, then name, then id), locale-free like the renderer's. */
function listOrder(a: ProductRow, b: ProductRow): number {
  const text = (x: string, y: string) => {
    const [p, q] = [x.toLowerCase(), y.toLowerCase()];
    return p < q ? -1 : p > q ? 1 : x < y ? -1 : x > y ? 1 : 0;
  };
  return Number(FEATURED.has(b.slug)) - Number(FEATURED.has(a.slug)) || text(a.name, b.name) || text(productId(a.slug), productId(b.slug));
}

/**
 * Four related products each, from the same category. Products on the first
 * list page also link the products from page 3 onwards, so that every product
 * page is within three clicks of the home page (home, category, product, product)
 * however long its category's list is; the rest link their neighbours in list order.
 */
export function relatedProductSlugs(rows: ProductRow[], perPage: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const byCategory = new Map<string, ProductRow[]>();
  for (const r of rows) byCategory.set(r.category, [...(byCategory.get(r.category) ?? []), r]);
  for (const list of byCategory.values()) {
    const ordered = [...list].sort(listOrder);
    const first = ordered.slice(0, perPage);
    const far = ordered.slice(2 * perPage);
    const assigned = new Map<ProductRow, ProductRow[]>(first.map((r) => [r, []]));
    far.forEach((r, k) => assigned.get(first[k % first.length])!.push(r));
    ordered.forEach((row, i) => {
      const picks = [...(assigned.get(row) ?? [])];
      for (let k = 1; picks.length < 4 && k < ordered.length; k++) {
        const next = ordered[(i + k) % ordered.length];
        if (next !== row && !picks.includes(next)) picks.push(next);
      }
      if (picks.length > 4) throw new Error(`category ${row.category}: more far products than the first page can link (${picks.length} on ${row.slug})`);
      out.set(
        row.slug,
        picks.map((r) => r.slug),
      );
    });
  }
  return out;
}

export function buildProducts(rows: ProductRow[], ctx: ProductContext): Product[] {
  const relatedSlugs = relatedProductSlugs(rows, ctx.perPage);
  return rows.map((row): Product => {
    const related = relatedSlugs.get(row.slug)!.map(productId);
    const articles = ctx.articlesFor(row.slug);
    const relatedArticles = (articles.length > 0 ? articles : ctx.articlesForCategory(row.category)).slice(0, 3);
    const p: Product = {
      id: productId(row.slug),
      slug: row.slug,
      name: row.name,
      category: categoryId(row.category),
      listedIn: ctx.listedIn(row).map(categoryId),
      latinName: row.latin,
      specification: row.spec,
      appearance: row.appearance,
      certifications: [...CERTIFICATIONS],
      package: [...PACKAGE],
      delivery: '1-2 working days',
      moq: '1-5kg',
      freeSample: true,
      summary: productSummary(row),
      description: productBlocks(row),
      applications: row.apps.map((c) => APPLICATIONS[c]),
      claims: CLAIMS[row.slug] ?? [],
      images: [],
      relatedProducts: [...new Set(related)],
      relatedArticles,
      updated: ctx.updated(row),
    };
    if (FEATURED.has(row.slug)) p.featured = true;
    return p;
  });
}

/** Content dates: older lines 2021-2023, the newer standardized extracts 2024-2025. */
export function productUpdated(row: ProductRow, isNewer: boolean): string {
  const rand = prng(`product-date:${row.slug}`);
  return isNewer ? addDays('2024-03-01', Math.floor(rand() * 540)) : addDays('2021-01-10', Math.floor(rand() * 1080));
}
