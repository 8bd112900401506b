/** Content of the non-catalogue screens (data/pages/<name>.json). */
import type { Block, Category, Page } from '../../src/core/schema.js';
import { categoryId } from './categories.js';
import { productId } from './products.js';
import { nodeIdFor } from './util.js';

const p = (text: string): Block => ({ type: 'paragraph', text });
const h2 = (text: string): Block => ({ type: 'heading', level: 2, text });
const ul = (items: string[]): Block[] => [{ type: 'list', items }];

export const PAGE_FILES = ['home', 'about-us', 'contact-us', 'knowledge', 'news', 'search', 'search-404', 'thanks'] as const;
export type PageFile = (typeof PAGE_FILES)[number];

export const pageId = (file: PageFile): string => nodeIdFor(`page:${file}`);

const HIGHLIGHTS = [
  {
    title: 'Lab-tested purity',
    text: 'Every lot is tested in our own laboratory for assay, heavy metals and microbes, and ships with its certificate of analysis.',
  },
  { title: 'GMP factory', text: 'Extraction, drying, blending and packing take place in our GMP-certified factory with ISO9001 and ISO22000 systems.' },
  { title: 'Bulk and wholesale supply', text: 'From 1-10kg foil bags to 25kg drums, with an MOQ of 1-5kg, free samples and delivery in 1-2 working days.' },
];

/** One linked line per category, so every list (even the empty /api) is reachable from a content page. */
function productLines(categories: Category[]): Block {
  return {
    type: 'list',
    items: categories.filter((c) => !c.all).map((c) => [{ text: c.name, href: c.path }, `: ${c.summary.split(/(?<=\.) /)[0]}`]),
  };
}

export function buildPages(brand: string, categories: Category[]): Record<PageFile, Page> {
  const mk = (
    file: PageFile,
    kind: Page['kind'],
    rest: Omit<Page, 'id' | 'kind' | 'body' | 'banners' | 'featuredCategories' | 'featuredProducts' | 'highlights' | 'intro'> & Partial<Page>,
  ): Page => ({
    id: pageId(file),
    kind,
    intro: '',
    body: [],
    banners: [],
    featuredCategories: [],
    featuredProducts: [],
    highlights: [],
    ...rest,
  });
  return {
    home: mk('home', 'home', {
      heading: 'Herb Extracts Supplier: Shiitake Mushroom Extract, Pueraria Mirifica',
      intro: `${brand} manufactures and supplies herb extracts, standardized extracts, monomers, mushroom extracts, plant proteins, vitamins and amino acids in bulk to supplement, food and cosmetic makers worldwide.`,
      banners: [
        {
          heading: 'Standardized herb extracts',
          text: 'Monomers, standardized and ratio extracts from our GMP extraction plant, tested by HPLC.',
          link: '/herb-extract',
          linkText: 'Browse herb extracts',
        },
        {
          heading: 'Shiitake mushroom extract',
          text: 'Lentinan and polypeptide extracts from shiitake fruiting bodies, plus organic mushroom extracts.',
          link: '/shitake-mushroom-extract',
          linkText: 'See shiitake extracts',
        },
        {
          heading: 'Pueraria mirifica root extract',
          text: 'Pueraria mirifica and kudzu root extracts, from puerarin 98% to 10:1 root extract.',
          link: '/pueraria-extract/pueraria-root-extract',
          linkText: 'View pueraria mirifica',
        },
      ],
      featuredCategories: ['herb-extract', 'shitake-mushroom-extract', 'pueraria-extract', 'mushroom-extract', 'protein-powder', 'health-food-ingredients'].map(
        categoryId,
      ),
      featuredProducts: [
        'bulk-curcumin',
        'stephania-extract',
        'lentinan-extract',
        'pueraria-root-extract',
        'grape-seed-extract',
        'reishi-mushroom-extract-powder',
        'pea-protein-powder',
        'bulk-nmn-powder',
      ].map(productId),
      highlights: HIGHLIGHTS,
      body: [
        h2('From raw herb to finished powder'),
        p(
          'We control the process from raw herb to finished powder: identified raw materials from partner planting bases, extraction and purification in our own GMP factory, and release testing in our own laboratory. That is how we keep the assay the same from one lot to the next.',
        ),
        p('Ask for a quote, a custom quote, a free sample, private labelling or a bulk and wholesale offer through any product page.'),
      ],
      updated: '2025-09-18',
    }),
    'about-us': mk('about-us', 'about', {
      heading: `About ${brand}`,
      intro: `${brand} was established in 2009 as a subsidiary of a biotechnology company and makes plant extracts and health-food raw materials for manufacturers around the world.`,
      highlights: HIGHLIGHTS,
      body: [
        h2('Who we are'),
        p(
          `${brand} was established in 2009 as a subsidiary of a biotechnology company that had worked on natural product chemistry for many years. From the start our business has been plant extracts and health-food raw materials: standardized herb extracts, single compounds purified to high assay, mushroom extracts, plant proteins, vitamins, amino acids and other nutritional ingredients.`,
        ),
        p(
          'Our customers are supplement brands, food and beverage companies, cosmetic manufacturers, distributors and research laboratories. Most buy from us in bulk, some ask for private labelling, and many start with a free sample and a custom quote.',
        ),
        h2('Our GMP factory'),
        p(
          'Extraction, concentration, purification, spray drying, blending and packing all take place in our GMP factory, which works under ISO9001 and ISO22000 management systems and holds HALAL and KOSHER certificates. Purification lines with resin and chromatography columns let us make monomers such as curcumin 95%, quercetin and cepharanthine 99%.',
        ),
        h2('Our quality laboratory'),
        p(
          'Our quality laboratory tests every lot before release: identity by TLC or HPLC, assay by HPLC or UV, moisture, particle size, heavy metals, pesticide residues and microbial counts. Each shipment carries a certificate of analysis, and we keep retained samples of every lot for two years.',
        ),
        ...ul([
          'Raw materials identified against reference samples and tested before purchase',
          'Production records for every batch, from raw herb to finished drum',
          'Third-party testing of key lots for independent confirmation',
        ]),
        h2('Our product lines'),
        p('We organise our range into the following product lines; each page lists its products with their specifications.'),
        productLines(categories),
        h2('Supply you can plan on'),
        p(
          'We pack in 1-10kg foil bags and 25kg drums, ship stock lots in 1-2 working days and accept orders from an MOQ of 1-5kg, so both development teams and large buyers can work with us. Bulk and wholesale customers can agree annual volumes and fixed specifications.',
        ),
      ],
      updated: '2025-04-02',
    }),
    'contact-us': mk('contact-us', 'contact', {
      heading: 'Contact Us',
      intro: 'Ask for a quote, a custom quote, a free sample, private labelling or a bulk and wholesale offer. Our team answers within one working day.',
      body: [
        h2('How we can help'),
        ...ul([
          'Quotes and custom quotes for any product and quantity',
          'Free samples for laboratory evaluation',
          'Specifications, certificates of analysis and MSDS',
          'Private labelling and custom blends',
        ]),
        p('Please tell us the product, the grade or specification you need, the quantity and your country, so we can answer with a complete offer.'),
        h2('What happens next'),
        p(
          'A member of our sales team replies within one working day, Monday to Friday. For samples we confirm the grade and the courier details, then ship within one to two working days. For quotes we send a price per kilogram for your quantity, the packing and the lead time, together with the specification and a recent certificate of analysis.',
        ),
        p(
          'For technical questions about assay methods, stability or formulation, our quality and application teams answer directly, usually with test data from our laboratory.',
        ),
      ],
      updated: '2025-02-11',
    }),
    knowledge: mk('knowledge', 'knowledge', {
      heading: 'Knowledge Center',
      intro:
        'Guides, comparisons and answers to common questions about herbal extracts, plant proteins, amino acids, vitamins, mushrooms and other ingredients, written for manufacturers and buyers.',
      updated: '2025-12-20',
    }),
    news: mk('news', 'news', {
      heading: 'Company News',
      intro: 'Exhibitions, new products, visits to our planting base and other news from our company.',
      updated: '2024-12-05',
    }),
    search: mk('search', 'search', {
      heading: 'Search',
      intro: 'Search our products and knowledge articles by name, ingredient or latin name.',
      updated: '2024-08-30',
    }),
    'search-404': mk('search-404', 'search-not-found', {
      heading: 'No results found',
      intro:
        'We could not find anything for your search. Try a shorter word or a latin name, or browse our popular categories: herb extracts, mushroom extracts, protein powders and health food ingredients.',
      featuredCategories: ['herb-extract', 'mushroom-extract', 'protein-powder', 'health-food-ingredients', 'fruit-and-vegetable-powder'].map(categoryId),
      updated: '2024-08-30',
    }),
    thanks: mk('thanks', 'thanks', {
      heading: 'Thank you for your inquiry',
      intro: 'We have received your message. Our team will reply within one working day with a quote, a sample confirmation or the documents you asked for.',
      body: [p('While you wait, you may find answers in our knowledge center or browse related products.')],
      updated: '2024-05-14',
    }),
  };
}
