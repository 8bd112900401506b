/** One row of the ingredient fact table that knowledge articles are composed from. */
export interface Ingredient {
  key: string;
  /** Title-case name used in headlines. */
  name: string;
  /** Article category (spec section 2 topics). */
  topic: string;
  kind: 'compound' | 'extract' | 'protein' | 'vitamin' | 'amino' | 'mushroom' | 'fiber' | 'sweetener' | 'lipid';
  /** What it is (full sentence). */
  what: string;
  /** Source plant or organism and how it is obtained (full sentence). */
  source: string;
  history: string;
  /** Grades on the market, noun phrases. */
  grades: string[];
  /** How its assay is tested (noun phrase). */
  test: string;
  /** What it is studied for, noun phrases. */
  studied: string[];
  /** Commonly cited amounts (full sentence). */
  amt: string;
  /** Safety notes (full sentence). */
  safe: string;
  /** Who should be cautious (full sentence). */
  avoid: string;
  /** Storage (full sentence). */
  store: string;
  /** Formulation notes: taste, solubility, handling (full sentence). */
  form: string;
  /** Finished formats it is used in. */
  forms: string[];
  /** When it is usually taken (full sentence). */
  time: string;
  /** Ingredients it is commonly combined with. */
  combos: string[];
  /** Keys of ingredients to compare with. */
  vs: string[];
  /** Slugs of our products made of it. */
  prod: string[];
}
