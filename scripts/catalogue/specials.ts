/**
 * Articles written by hand rather than composed: the spec names the chicory
 * versus Jerusalem artichoke inulin piece as the one with its own, longer
 * description and keyword list.
 */
import type { Block } from '../../src/core/schema.js';
import type { ArticleDraft } from './articles.js';

const p = (text: string): Block => ({ type: 'paragraph', text });
const h2 = (text: string): Block => ({ type: 'heading', level: 2, text });

export interface SpecialArticle extends ArticleDraft {
  description: string;
  keywords: string;
}

export const SPECIAL_ARTICLES: SpecialArticle[] = [
  {
    headline: 'Chicory Root Inulin vs Jerusalem Artichoke Inulin',
    type: 'vs',
    topic: 'Inulin',
    about: ['inulin'],
    summary: 'Chicory root and Jerusalem artichoke are the two main sources of inulin; they differ in chain length, taste, price and how they behave in foods.',
    description:
      'Chicory root vs Jerusalem artichoke inulin: chain length, prebiotic effect, taste, solubility, price, and which source suits drinks, bakery or supplements.',
    keywords:
      'chicory root inulin, Jerusalem artichoke inulin, inulin comparison, prebiotic fibre, fructan, FOS, inulin powder bulk, GMP factory, free sample, bulk wholesale',
    products: ['bulk-inulin-powder', 'burdock-root-extract', 'oat-beta-glucan-powder'],
    body: [
      p(
        'Inulin is made commercially from two main crops: chicory root, grown mostly in Belgium, the Netherlands, France and Chile, and Jerusalem artichoke, grown widely in northern China. Both give a fructan fibre that human enzymes cannot digest, but the two powders are not identical.',
      ),
      h2('Chain length'),
      p(
        'Inulin molecules are chains of fructose units ending in one glucose. Chicory inulin has an average degree of polymerisation of about 10-12, with long-chain grades above 23. Jerusalem artichoke inulin has shorter chains on average, with a larger share of oligofructose. Shorter chains taste sweeter, dissolve more readily and ferment faster in the colon; long chains ferment more slowly and further along the gut, which many people find gentler.',
      ),
      h2('Taste and texture'),
      p(
        'Standard chicory inulin is neutral to slightly sweet, about 10% as sweet as sugar. Jerusalem artichoke inulin tends to taste a little sweeter and can carry a faint earthy note unless it is well refined. In yoghurts and spreads, long-chain chicory inulin forms a creamy gel that replaces fat; short-chain grades are better for clear drinks.',
      ),
      h2('Evidence and claims'),
      p(
        'Most human research on inulin, and the EU’s authorised claim for bowel function at 12 g a day, concerns native chicory inulin. Jerusalem artichoke inulin is expected to behave similarly as a prebiotic, but it is less studied, so brands relying on the authorised claim should use chicory inulin.',
      ),
      h2('Price and supply'),
      p(
        'Jerusalem artichoke grows on poor soils and is often cheaper, while chicory inulin comes from a mature European industry with large, stable volumes. Both are available as 90% inulin powders.',
      ),
      h2('Which to choose'),
      p(
        'For supplements and products that cite research or claims, chicory root inulin is the safer choice. For cost-sensitive foods and sweeter drinks, Jerusalem artichoke inulin can work well. Either way, start low, at about 5 g a day, because fermentation in the colon can cause wind and bloating.',
      ),
    ],
  },
];
