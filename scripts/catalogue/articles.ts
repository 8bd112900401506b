/**
 * Knowledge articles: about 1,000 pieces composed from the ingredient fact
 * table. Each article type (question, comparison, guide, benefit piece) picks
 * its own facts and frames them in its own words, so two articles on the same
 * ingredient share little text and every article says something specific.
 */
import type { Block } from '../../src/core/schema.js';
import { blocksText } from '../../src/core/search-text.js';
import { INGREDIENTS_1 } from './ingredient-facts-1.js';
import { INGREDIENTS_2 } from './ingredient-facts-2.js';
import type { Ingredient } from './ingredient-types.js';
import { cap, joinList, mid, pick, pickSome, prng, wordCount } from './util.js';
import { TITLE_SUFFIX } from './meta.js';

/**
 * Fact sentences are written to stand alone, but a few start with "It" or "They";
 * an article may place them under any heading, so the pronoun becomes the name.
 */
function ownSentences(i: Ingredient): Ingredient {
  const name = cap(mid(i.name));
  const fix = (s: string) =>
    s
      .replace(/^It /, `${name} `)
      .replace(/^Its /, `${name}’s `)
      .replace(/^They /, `${name} powders `);
  const out = { ...i };
  for (const k of ['what', 'source', 'history', 'amt', 'safe', 'avoid', 'store', 'form', 'time'] as const) out[k] = fix(i[k]);
  return out;
}

export const INGREDIENTS: Ingredient[] = [...INGREDIENTS_1, ...INGREDIENTS_2].map(ownSentences);
const BY_KEY = new Map(INGREDIENTS.map((i) => [i.key, i]));

export interface ArticleDraft {
  headline: string;
  /** Type of piece, for the self-check and for varying dates and authors. */
  type: string;
  topic: string;
  /** Ingredient keys the article is about (comparisons have two). */
  about: string[];
  summary: string;
  body: Block[];
  /** Product slugs it links to. */
  products: string[];
}

const h2 = (text: string): Block => ({ type: 'heading', level: 2, text });
const p = (text: string): Block => ({ type: 'paragraph', text });
const ul = (items: string[]): Block => ({ type: 'list', items });
const ol = (items: string[]): Block => ({ type: 'list', ordered: true, items });

const KIND_NOUN: Record<Ingredient['kind'], string> = {
  compound: 'ingredient',
  extract: 'herbal extract',
  protein: 'protein',
  vitamin: 'vitamin',
  amino: 'amino acid',
  mushroom: 'mushroom extract',
  fiber: 'fibre',
  sweetener: 'sweetener',
  lipid: 'ingredient',
};

/**
 * The fact table lists research areas best-studied first, so the wording of the
 * evidence steps down with the position rather than repeating one formula.
 */
function studiedList(i: Ingredient): string[] {
  const strength = [
    (s: string) => `${cap(s)}: the best studied area for ${mid(i.name)}, with several human trials, though not all agree.`,
    (s: string) => `${cap(s)}: studied in smaller human trials; the results are encouraging but need confirmation.`,
    (s: string) => `${cap(s)}: mostly early research so far, including laboratory and animal work.`,
    (s: string) => `${cap(s)}: an emerging question with few controlled studies in people.`,
  ];
  return i.studied.map((s, k) => strength[Math.min(k, strength.length - 1)](s));
}

type Composer = (i: Ingredient, r: () => number) => Block[];

const SUPPLY_CLOSERS = [
  (i: Ingredient) =>
    `We supply ${mid(i.name)} to supplement and food manufacturers in 1-10kg foil bags and 25kg drums from our GMP factory, lab-tested lot by lot, with a free sample on request.`,
  (i: Ingredient) =>
    `If you formulate with ${mid(i.name)}, ask us for a specification sheet, a COA of a recent lot and a free sample; stock lots ship in 1-2 working days.`,
  (i: Ingredient) => `Our technical team can advise on grades of ${mid(i.name)} for your format; bulk and wholesale orders start from an MOQ of 1-5kg.`,
  (i: Ingredient) =>
    `This article is general information for manufacturers and is not medical advice. For product questions about ${mid(i.name)}, contact our team for a quote or a sample.`,
];

const TYPES: Record<string, { headline: (i: Ingredient) => string | string[]; topic?: string; compose: Composer }> = {
  what: {
    headline: (i) => [`What Is ${i.name}?`, `What Is ${i.name}? Source, Grades and Uses`],
    compose: (i, r) => [
      p(i.what),
      h2(`Where ${mid(i.name)} comes from`),
      p(i.source),
      p(
        pick(r, [
          `Knowing the source matters to buyers because it decides the impurities to test for, the price swings after poor harvests and the documents a lot should carry.`,
          `For a buyer, the source explains the specification: what the raw material can give, what a realistic assay is and which contaminants deserve a place on the certificate.`,
        ]),
      ),
      h2('Grades you will find on the market'),
      ul(i.grades.map((g) => cap(g))),
      p(
        `Grades are not interchangeable: a label claim should always say which grade was used and how it was measured, for ${mid(i.name)} usually by ${i.test}.`,
      ),
      h2('What it is studied for'),
      p(
        `${cap(mid(i.name))} has been studied for ${joinList(i.studied)}. As with most ${KIND_NOUN[i.kind]}s, the amount, the form and the length of use all affect what a study finds, so single studies should be read with care.`,
      ),
    ],
  },
  uses: {
    headline: (i) => `What Is ${i.name} Used For?`,
    compose: (i, r) => [
      p(`${cap(mid(i.name))} turns up in more product types than most shoppers realise. ${i.what}`),
      h2('Main uses'),
      ul(i.forms.map((f) => `${cap(f)}: ${pick(r, ['a common format for', 'a growing format for', 'a classic format for'])} ${mid(i.name)}.`)),
      h2('Why formulators choose it'),
      p(i.form),
      p(`Typical partners in a formula are ${joinList(i.combos)}, chosen to complement ${mid(i.name)} or to make a product easier to take.`),
      h2('Areas of research'),
      ul(i.studied.map((s) => cap(s))),
      p(
        `These are areas of study, not approved claims; what a label may say depends on the market, and in the EU and US most health statements need authorisation or a disclaimer.`,
      ),
    ],
  },
  benefits: {
    headline: (i) => `${i.name} Benefits: What Research Says`,
    compose: (i, r) => [
      p(
        `Benefit lists online often overstate what is known. Here is a sober overview of the areas in which ${mid(i.name)} has actually been studied, and how strong that evidence is.`,
      ),
      h2('Areas studied'),
      ul(studiedList(i)),
      h2('How much was used'),
      p(i.amt),
      p(
        pick(r, [
          `Benefits seen at study doses cannot be assumed for products with much smaller amounts, so formulators should compare their label dose with the research.`,
          `Many commercial products contain less than the studied amount; a product can only be expected to behave like the research if it uses a similar dose and grade.`,
        ]),
      ),
      h2('Limits of the evidence'),
      p(
        `Many studies on ${mid(i.name)} are small, short or sponsored, and animal or cell results do not always carry over to people. Larger, independent trials are needed before firm conclusions.`,
      ),
      p(i.safe),
    ],
  },
  works: {
    headline: (i) => [`Does ${i.name} Really Work?`, `Does ${i.name} Really Work? What Studies Show`],
    compose: (i, r) => [
      p(
        `Whether ${mid(i.name)} works depends on the question asked. It has been studied for ${joinList(i.studied)}, and the quality of evidence differs between these areas.`,
      ),
      h2('What counts as good evidence'),
      ol([
        'Randomised, placebo-controlled trials in people, ideally more than one.',
        'Enough participants and a long enough period to see a real difference.',
        'A well-defined ingredient: the grade, the assay and the daily amount stated.',
        'Outcomes that matter to people, not only laboratory markers.',
      ]),
      h2(`Where ${mid(i.name)} stands`),
      p(`${cap(i.studied[0])} is the best studied area for ${mid(i.name)}. ${i.amt}`),
      p(
        pick(r, [
          `Results for ${joinList(i.studied.slice(1))} come mostly from smaller or earlier studies and are best described as promising.`,
          `For ${joinList(i.studied.slice(1))} the picture is less complete; several studies point in the same direction, but they are small.`,
        ]),
      ),
      h2('Practical reading'),
      p(`A product made with a tested grade of ${mid(i.name)}, at the studied amount, has the best chance of matching the research. ${i.time}`),
    ],
  },
  dosage: {
    headline: (i) => `${i.name} Dosage: How Much Is Used?`,
    topic: 'Safety and How to Use',
    compose: (i, r) => [
      p(
        `There is no single right dose of ${mid(i.name)}: the amount used in research depends on the grade, the purpose and the person. This overview collects the amounts commonly cited.`,
      ),
      h2('Commonly cited amounts'),
      p(i.amt),
      h2('Why the grade changes the dose'),
      p(
        `The same label amount can mean very different intakes: ${joinList(i.grades.slice(0, 3))} deliver different quantities of the active compounds. Always convert a dose to the studied compound before comparing.`,
      ),
      h2('Timing and splitting'),
      p(i.time),
      p(
        pick(r, [
          'Splitting a daily amount into two doses often improves comfort and keeps blood levels steadier.',
          'Starting with a lower amount for the first week lets people judge their tolerance before moving to the full dose.',
        ]),
      ),
      h2('Safety first'),
      p(i.safe),
      p(i.avoid),
    ],
  },
  safety: {
    headline: (i) => `${i.name} Side Effects and Safety`,
    topic: 'Safety and How to Use',
    compose: (i, r) => [
      p(
        `Safety questions come up with every ${KIND_NOUN[i.kind]}, and ${mid(i.name)} is no exception. The answer depends on the amount, the quality of the material and the person taking it.`,
      ),
      h2('Reported side effects'),
      p(i.safe),
      h2('Who should be careful'),
      p(i.avoid),
      h2('Quality is a safety issue'),
      p(
        `Many safety problems with supplements come from contamination or wrong identity rather than the ingredient itself. For ${mid(i.name)}, a reliable lot is tested by ${i.test}, and for heavy metals, microbes and, where relevant, pesticide residues and solvents.`,
      ),
      ul([
        'Ask for a certificate of analysis for the specific lot.',
        'Check that the assay method matches the label claim.',
        'Confirm heavy metals and microbial limits for your market.',
      ]),
      p(
        pick(r, [
          'Anyone who is pregnant, breastfeeding, taking medicines or managing a medical condition should talk to a doctor before using any supplement.',
          'This article is general information, not medical advice; a doctor or pharmacist can judge individual situations.',
        ]),
      ),
    ],
  },
  daily: {
    headline: (i) => `Can You Take ${i.name} Every Day?`,
    compose: (i, r) => [
      p(
        `Most studies on ${mid(i.name)} gave it daily, for weeks or months, so daily use is the pattern research knows best. Whether that suits a particular person is a separate question.`,
      ),
      h2('What the studies did'),
      p(i.amt),
      p(`Study periods matter: effects reported for ${i.studied[0]} came from continuous daily use, not occasional doses.`),
      h2('Long-term use'),
      p(i.safe),
      p(
        pick(r, [
          'Where long-term data are limited, some people take breaks, for example five days on and two off, or a month off after three months.',
          'For long-term use, regular check-ins with a doctor are a sensible habit, especially for people taking other medicines.',
        ]),
      ),
      h2('Making it a routine'),
      p(i.time),
      p(`Formats such as ${joinList(i.forms.slice(0, 3))} make daily use easier, which is why they dominate the market for ${mid(i.name)}.`),
      p(i.avoid),
    ],
  },
  besttime: {
    headline: (i) => `When Is the Best Time to Take ${i.name}?`,
    compose: (i, r) => [
      p(`Timing questions are common, and for ${mid(i.name)} there are a few practical points that matter more than the clock.`),
      h2('The short answer'),
      p(i.time),
      h2('With or without food'),
      p(
        pick(r, [
          `Food changes how some ingredients are absorbed and how well the stomach tolerates them. ${i.form}`,
          `Whether to take it with a meal depends on its solubility and on comfort. ${i.form}`,
        ]),
      ),
      h2('Splitting the dose'),
      p(`${i.amt} Larger daily amounts are usually divided so that each dose is better tolerated.`),
      h2('Combining with other products'),
      p(
        `${cap(mid(i.name))} is often taken with ${joinList(i.combos.slice(0, 3))}. If a product combines several ingredients, its label timing applies to the whole formula.`,
      ),
      p(i.avoid),
    ],
  },
  howmade: {
    headline: (i) => [`How Is ${i.name} Made?`, `How Is ${i.name} Made? From Raw Material to Powder`],
    compose: (i, r) => [
      p(`Behind every kilogram of ${mid(i.name)} is a process that decides its purity, its taste and its price. ${i.source}`),
      h2('From raw material to powder'),
      ol(processSteps(i)),
      h2('What is tested'),
      p(
        `The finished lot is tested by ${i.test}, together with moisture, heavy metals and microbial counts, and compared with the specification agreed with the buyer.`,
      ),
      h2('Grades the process can deliver'),
      ul(i.grades.map((g) => cap(g))),
      p(
        pick(r, [
          'Higher grades need more purification steps, which lowers the yield and raises the cost per kilogram.',
          'Each extra purification step removes impurities but also loses some of the target compound, which is why high grades cost more.',
        ]),
      ),
    ],
  },
  howuse: {
    headline: (i) => (i.kind === 'protein' ? `How to Use ${i.name} in Shakes and Recipes` : `How to Use ${i.name} Powder`),
    compose: (i, r) => [
      p(`${cap(mid(i.name))} powder is simple to use once a few handling points are clear. ${i.form}`),
      h2('Step by step'),
      ol([
        `Check the grade on the label or COA so you know how much of the active compound each gram provides.`,
        `Weigh the amount with a scale accurate to the dose; ${i.kind === 'vitamin' || i.key === 'melatonin' ? 'for microgram and milligram doses use a diluted premix' : 'a 0.1 g scale is usually enough'}.`,
        `Mix it into ${pick(r, ['a drink, yoghurt or recipe', 'water, juice or a smoothie', 'food or a capsule'])} according to its solubility.`,
        'Reseal the bag straight away to protect the rest from moisture.',
      ]),
      h2('Amounts'),
      p(i.amt),
      h2('Good partners'),
      p(`${cap(mid(i.name))} is commonly used with ${joinList(i.combos)}.`),
      h2('A word of caution'),
      p(i.avoid),
    ],
  },
  buying: {
    headline: (i) => `Buying ${i.name} in Bulk: A Guide`,
    compose: (i, r) => [
      p(`Buying ${mid(i.name)} in bulk is mostly about asking the right questions before the first order. This guide lists them.`),
      h2('1. Choose the grade'),
      ul(i.grades.map((g) => cap(g))),
      h2('2. Agree the test method'),
      p(
        `Ask how the assay is measured. For ${mid(i.name)} the reference is ${i.test}. A supplier who tests by a different method should say so on the specification.`,
      ),
      h2('3. Check documents'),
      ul([
        'A certificate of analysis for the actual lot',
        'A specification sheet and MSDS',
        'Allergen, GMO and irradiation statements',
        'Certificates such as ISO9001, ISO22000, HALAL and KOSHER',
      ]),
      h2('4. Packing and storage'),
      p(i.store),
      p(
        pick(r, [
          'Standard packing is a 1-10kg foil bag for samples and small runs and a 25kg drum with double liners for bulk.',
          'Foil bags of 1-10kg protect small lots from light and moisture; 25kg fibre drums with PE liners are the norm for bulk shipments.',
        ]),
      ),
      h2('5. Sample first'),
      p(`A free sample lets your laboratory confirm identity and assay before you commit to a bulk order of ${mid(i.name)}.`),
    ],
  },
  storage: {
    headline: (i) => `How to Store ${i.name} Powder`,
    compose: (i, r) => [
      p(`Good storage protects both the assay and the safety of ${mid(i.name)}. ${i.store}`),
      h2('The four enemies of powders'),
      ul([
        'Moisture, which causes caking and microbial growth',
        'Heat, which speeds chemical breakdown',
        'Light, which degrades many plant compounds and vitamins',
        'Air, which oxidises sensitive molecules',
      ]),
      h2(`Practical rules for ${mid(i.name)}`),
      ol([
        'Keep the original sealed foil bag or lined drum until use.',
        pick(r, ['Store below 25 °C, away from walls and floors, on pallets.', 'Keep the warehouse cool and dry, ideally under 25 °C and 60% humidity.']),
        'Reseal opened bags immediately, squeezing out the air.',
        'Use first-in, first-out and track the retest date on the COA.',
      ]),
      h2('Shelf life'),
      p(
        `Most ${KIND_NOUN[i.kind]} powders like ${mid(i.name)} carry a two-year shelf life in the original packing; after that, a retest of the assay shows whether the lot is still within specification.`,
      ),
      p(i.form),
    ],
  },
  quality: {
    headline: (i) => `${i.name} COA Explained: What to Check`,
    compose: (i, r) => [
      p(
        `A certificate of analysis, or COA, is the buyer’s main evidence that a lot of ${mid(i.name)} matches its specification. Here is what each part should show.`,
      ),
      h2('Identity and assay'),
      p(
        `The assay line must name the compound and the method. For ${mid(i.name)} the usual method is ${i.test}. Grades commonly sold include ${joinList(i.grades.slice(0, 3))}.`,
      ),
      h2('Physical tests'),
      ul(['Appearance and colour', 'Particle size (mesh)', 'Loss on drying', 'Bulk density']),
      h2('Contaminants'),
      ul([
        'Lead, arsenic, cadmium and mercury',
        'Total plate count, yeasts and moulds, E. coli and Salmonella',
        'Pesticide residues for plant materials',
        'Residual solvents where solvents were used',
      ]),
      h2('Red flags'),
      p(
        pick(r, [
          'Be wary of certificates without a lot number, without a method, or with results that look identical from lot to lot.',
          'A COA that lists only "complies" without numbers, or that uses UV for a claim that needs HPLC, deserves a follow-up question.',
        ]),
      ),
      p(i.safe),
    ],
  },
  history: {
    headline: (i) => `${i.name}: History and Modern Uses`,
    compose: (i, r) => [
      p(i.history),
      h2('From tradition to specification'),
      p(`Modern production has turned ${mid(i.name)} into a standardized ingredient. ${i.source}`),
      h2('How it is used today'),
      p(`Today ${mid(i.name)} is found in ${joinList(i.forms)}. Research has looked at ${joinList(i.studied.slice(0, 3))}.`),
      h2('What has changed'),
      p(
        pick(r, [
          `The biggest change is measurement: where tradition judged the raw material by look, taste and smell, today each lot is tested by ${i.test}.`,
          `Analytical methods such as ${i.test} now let buyers specify exactly what they are getting, something traditional users could not do.`,
        ]),
      ),
      p(i.safe),
    ],
  },
  avoid: {
    headline: (i) => [`Who Should Avoid ${i.name}?`, `Who Should Avoid ${i.name}? Precautions`],
    topic: 'Safety and How to Use',
    compose: (i, r) => [
      p(`Even well-tolerated ingredients are not for everyone. This is a summary of the groups who are usually advised to be careful with ${mid(i.name)}.`),
      h2('Groups advised to check first'),
      p(i.avoid),
      h2('Why medicines matter'),
      p(
        pick(r, [
          'Many plant compounds are processed by the same liver enzymes as medicines, and some affect blood sugar, blood pressure or clotting; together, effects can add up.',
          'Supplements can change how medicines work: some slow their breakdown, others add to their effect. A pharmacist can check combinations quickly.',
        ]),
      ),
      h2('Side effects to watch for'),
      p(i.safe),
      h2('For manufacturers'),
      p(
        `Label warnings for ${mid(i.name)} should reflect the groups above and the rules of the target market; our regulatory team can share the warnings commonly used.`,
      ),
    ],
  },
  formulating: {
    headline: (i) => `Formulating With ${i.name}: Brand Tips`,
    compose: (i, r) => [
      p(
        `${cap(mid(i.name))} is a popular ingredient, but it has its own habits in production. These notes come from the questions our application lab hears most.`,
      ),
      h2('Physical behaviour'),
      p(i.form),
      h2('Choosing a format'),
      ul(i.forms.map((f) => `${cap(f)}`)),
      h2('Dose and label'),
      p(`${i.amt} Choose the grade so the daily amount fits the format: a capsule holds roughly 400-700 mg of powder.`),
      h2('Combinations'),
      p(
        `Common partners are ${joinList(i.combos)}. ${pick(r, ['Test compatibility in a pilot batch before scaling up.', 'Run a small stability test with the full formula, since interactions between ingredients can change colour or assay.'])}`,
      ),
      h2('Storage of finished goods'),
      p(i.store),
    ],
  },
  guide: {
    headline: (i) => `The Complete Guide to ${i.name}`,
    compose: (i, r) => [
      p(`This guide brings together the essentials about ${mid(i.name)} for buyers and product developers.`),
      h2('In brief'),
      ul([i.what, i.amt, i.store].map((s) => s)),
      h2('Source'),
      p(i.source),
      h2('Research'),
      p(`Areas studied include ${joinList(i.studied)}.`),
      h2('Safety'),
      p(`${i.safe} ${i.avoid}`),
      h2('Formats'),
      p(
        `${cap(mid(i.name))} is sold in ${joinList(i.forms)}. ${pick(r, ['Each format asks for a slightly different grade.', 'Particle size and solubility decide which format works best.'])}`,
      ),
    ],
  },
  grades: {
    headline: (i) => [`${i.name} Grades Explained`, `${i.name} Grades Explained for Buyers`],
    compose: (i, r) => [
      p(`Suppliers list several grades of ${mid(i.name)}, and choosing the wrong one is a common and expensive mistake. Here is how they differ.`),
      h2('The grades'),
      ul(i.grades.map((g, k) => `${cap(g)}${k === 0 ? ': the most common grade for supplements.' : '.'}`)),
      h2('How to choose'),
      ol([
        'Start from the amount used in the research you want to follow.',
        'Pick the grade that delivers it in a practical serving size.',
        `Check that the test method, ${i.test}, matches the claim.`,
        'Consider taste, colour and solubility in your format.',
      ]),
      h2('Formulation notes'),
      p(i.form),
      p(
        pick(r, [
          'Cheaper low grades can cost more per gram of active compound; always compare prices on that basis.',
          'A higher grade means less powder per dose, which can save capsule size, flavour masking and shipping weight.',
        ]),
      ),
    ],
  },
};

function processSteps(i: Ingredient): string[] {
  switch (i.kind) {
    case 'extract':
    case 'mushroom':
      return [
        'Identify and clean the raw material, checking it against a reference sample.',
        'Dry and mill it to open the plant or fungal tissue.',
        'Extract with hot water, ethanol or both, at controlled temperature.',
        'Filter and concentrate the extract under vacuum.',
        'Purify on resin or by precipitation where a high grade is needed.',
        'Spray-dry, sieve and blend to the agreed specification.',
      ];
    case 'protein':
      return [
        'Clean and mill the raw material.',
        'Mix with water and separate protein from starch and fibre.',
        'Concentrate the protein by precipitation or membrane filtration.',
        'Neutralise, pasteurise and spray-dry.',
        'Sieve, metal-detect and pack.',
      ];
    case 'amino':
    case 'vitamin':
      return [
        'Ferment or synthesise the compound under controlled conditions.',
        'Separate the product from the broth or reaction mixture.',
        'Purify by ion exchange, activated carbon or crystallisation.',
        'Dry and mill the crystals to the required particle size.',
        'Test each lot against the pharmacopoeia monograph.',
      ];
    default:
      return [
        'Obtain the raw material or precursor from an approved source.',
        'Extract, ferment or synthesise the target compound.',
        'Purify it by chromatography or crystallisation.',
        'Dry it at low temperature and mill it.',
        'Test the lot and release it against the specification.',
      ];
  }
}

function compareBody(a: Ingredient, b: Ingredient, r: () => number): Block[] {
  return [
    p(
      `${cap(mid(a.name))} and ${mid(b.name)} are often mentioned together, but they differ in origin, grades and how they are used. Here is a side-by-side view.`,
    ),
    {
      type: 'table',
      caption: `${a.name} and ${b.name} compared`,
      head: ['', a.name, b.name],
      rows: [
        ['Type', cap(KIND_NOUN[a.kind]), cap(KIND_NOUN[b.kind])],
        ['Common grade', cap(a.grades[0]), cap(b.grades[0])],
        ['Often combined with', joinList(a.combos.slice(0, 2)), joinList(b.combos.slice(0, 2))],
        ['Studied for', cap(a.studied[0]), cap(b.studied[0])],
        ['Typical formats', joinList(a.forms.slice(0, 2)), joinList(b.forms.slice(0, 2))],
      ],
    },
    h2(`About ${mid(a.name)}`),
    p(`${a.what} ${a.history}`),
    h2(`About ${mid(b.name)}`),
    p(`${b.what} ${b.history}`),
    h2('What research has looked at'),
    ul([`${cap(mid(a.name))}: ${joinList(a.studied)}.`, `${cap(mid(b.name))}: ${joinList(b.studied)}.`]),
    h2('Which to choose'),
    p(
      pick(r, [
        `The choice depends on the goal: ${mid(a.name)} has been studied mainly for ${a.studied[0]}, ${mid(b.name)} for ${b.studied[0]}.`,
        `They are not substitutes for each other. Research on ${mid(a.name)} centres on ${a.studied[0]}, while ${mid(b.name)} is mostly studied for ${b.studied[0]}.`,
      ]),
    ),
    p(`Some formulas combine both. ${a.safe}`),
  ];
}

/** "L-theanine", "NMN", "green tea extract" → the ingredient with that name or key, if any. */
const ALIASES: Record<string, string> = { dhm: 'dihydromyricetin', rhodiola: 'rhodiola', coq10: 'coenzyme-q10' };

function resolveIngredient(name: string): Ingredient | undefined {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[’']/g, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
  const key = ALIASES[norm(name)] ?? norm(name);
  return BY_KEY.get(key) ?? INGREDIENTS.find((i) => norm(i.name) === key);
}

/** Facts for combination partners that have no record of their own in the ingredient table. */
const PARTNER_FACTS: Record<string, string> = {
  boswellia:
    'Boswellia serrata is Indian frankincense; its gum resin extract, standardized to boswellic acids such as AKBA, is studied for joint comfort and is often paired with curcumin in joint formulas.',
  'calcium and vitamin d':
    'Calcium and vitamin D are the classic pair for bone health: vitamin D helps the gut absorb calcium, and both are commonly added to formulas for women over fifty.',
};

function combineBody(a: Ingredient, partner: string, r: () => number): Block[] {
  const b = resolveIngredient(partner);
  return [
    p(`${cap(mid(a.name))} and ${partner} appear together in many formulas. Is the combination sensible, and what should buyers know?`),
    h2('Why they are combined'),
    p(
      pick(r, [
        `Formulators pair ${mid(a.name)} with ${partner} either to support the same goal from different angles or to make the product easier to take.`,
        `The pairing is usually about complementary roles: ${mid(a.name)} covers one part of the goal, ${partner} another.`,
      ]),
    ),
    h2(`What ${mid(a.name)} brings`),
    p(`${a.what} It has been studied for ${joinList(a.studied.slice(0, 2))}.`),
    h2(`What ${partner} brings`),
    ...(b
      ? [p(`${b.what} ${b.amt}`), p(`${cap(mid(b.name))} has been studied for ${joinList(b.studied.slice(0, 3))}. ${b.safe}`)]
      : [p(PARTNER_FACTS[partner.toLowerCase()] ?? `${cap(partner)} is a common companion ingredient in ${joinList(a.forms.slice(0, 2))}.`)]),
    h2('Practical points'),
    ul([
      `Keep each ingredient at an amount that has been studied: ${a.amt.charAt(0).toLowerCase()}${a.amt.slice(1)}`,
      'Check that the two do not react in the finished product, for example by changing colour or assay in storage.',
      'Label warnings should cover both ingredients.',
    ]),
    p(a.avoid),
  ];
}

/** Room for a headline in a 30-60 character title once " - {brand}" is appended. */
const TITLE_MIN = 30 - TITLE_SUFFIX.length;
const TITLE_MAX = 60 - TITLE_SUFFIX.length;

/** The first headline that makes a 30-60 character title, else the one closest to that range. */
export function fitHeadline(options: string[]): string {
  const ok = options.find((h) => h.length >= TITLE_MIN && h.length <= TITLE_MAX);
  if (ok) return ok;
  const off = (h: string) => (h.length < TITLE_MIN ? TITLE_MIN - h.length : Math.max(0, h.length - TITLE_MAX));
  return [...options].sort((a, b) => off(a) - off(b))[0];
}

/** A combination partner as it reads in a title: our ingredient's own name, else title case. */
function partnerName(partner: string): string {
  const b = resolveIngredient(partner);
  if (b) return b.name;
  return partner.replace(/\b([a-z])([a-z]*)/g, (w, first: string, rest: string) => (['and', 'of', 'with'].includes(w) ? w : first.toUpperCase() + rest));
}

/** Every candidate article, in a stable order; the caller picks exactly as many as needed. */
export function articleCandidates(): ArticleDraft[][] {
  const perIngredient: ArticleDraft[][] = [];
  const seenPairs = new Set<string>();
  for (const ing of INGREDIENTS) {
    const r = prng(`articles:${ing.key}`);
    const out: ArticleDraft[] = [];
    for (const [type, t] of Object.entries(TYPES)) {
      const rt = prng(`article:${ing.key}:${type}`);
      const h = t.headline(ing);
      out.push({
        headline: fitHeadline(Array.isArray(h) ? h : [h]),
        type,
        topic: t.topic ?? ing.topic,
        about: [ing.key],
        summary: '',
        body: t.compose(ing, rt),
        products: ing.prod,
      });
    }
    for (const other of ing.vs) {
      const b = BY_KEY.get(other);
      if (!b) throw new Error(`ingredient ${ing.key}: vs names unknown ingredient "${other}"`);
      const pair = [ing.key, b.key].sort().join('|');
      if (seenPairs.has(pair)) continue;
      seenPairs.add(pair);
      const proteinPair = ing.kind === 'protein' && b.kind === 'protein';
      out.push({
        headline: fitHeadline([`${ing.name} vs ${b.name}: Key Differences`, `${ing.name} vs ${b.name}`]),
        type: 'vs',
        topic: proteinPair ? 'Protein Comparisons' : ing.topic,
        about: [ing.key, b.key],
        summary: '',
        body: compareBody(ing, b, prng(`article:${pair}`)),
        products: [...ing.prod.slice(0, 2), ...b.prod.slice(0, 2)],
      });
    }
    // One combination piece per ingredient, preferring a partner we have facts for, so the piece is about both.
    const known = ing.combos.filter((c) => resolveIngredient(c));
    for (const partner of (known.length > 0 ? known : pickSome(r, ing.combos, 1)).slice(0, 1)) {
      out.push({
        headline: fitHeadline([
          `Can You Take ${ing.name} and ${partnerName(partner)} Together?`,
          `Taking ${ing.name} With ${partnerName(partner)}`,
          `${ing.name} and ${partnerName(partner)}`,
        ]),
        type: 'combine',
        topic: ing.topic,
        about: [ing.key],
        summary: '',
        body: combineBody(ing, partner, prng(`article:${ing.key}:with:${partner}`)),
        products: ing.prod,
      });
    }
    // Rotate the type order per ingredient so that trimming to the target count drops different types for different ingredients.
    const head = out.filter((a) => a.type === 'what' || a.type === 'vs');
    const rest = out.filter((a) => a.type !== 'what' && a.type !== 'vs');
    const shift = Math.floor(r() * rest.length);
    perIngredient.push([...head, ...rest.slice(shift), ...rest.slice(0, shift)]);
  }
  return perIngredient;
}

/** Pads a body that falls short of the minimum with a section that still says something specific. */
export function ensureLength(draft: ArticleDraft, minWords: number): void {
  const ing = BY_KEY.get(draft.about[0]);
  if (!ing) return;
  const r = prng(`pad:${draft.headline}`);
  const extras: Block[][] = [
    [h2('Where it comes from'), p(ing.source)],
    [h2('Areas of research'), ul(ing.studied.map((s) => cap(s)))],
    [h2('Commonly cited amounts'), p(ing.amt)],
    [h2('Storage and handling'), p(ing.store)],
    [h2('When it is taken'), p(ing.time)],
    [h2('Formulation notes'), p(ing.form)],
    [h2('Background'), p(ing.history)],
    [h2('Grades on the market'), ul(ing.grades.map((g) => cap(g)))],
    [h2('Safety notes'), p(ing.safe)],
    [h2('Who should be careful'), p(ing.avoid)],
    [h2('Common partners'), p(`${cap(mid(ing.name))} is often combined with ${joinList(ing.combos)} in finished products.`)],
    [h2('Formats'), p(`Typical formats for ${mid(ing.name)} are ${joinList(ing.forms)}.`)],
    [
      h2('How lots are tested'),
      p(`Each lot of ${mid(ing.name)} should be tested by ${ing.test}, with moisture, heavy metals and microbial counts on the certificate of analysis.`),
    ],
    [h2('Working with a supplier'), p(pick(r, SUPPLY_CLOSERS)(ing))],
  ];
  for (const extra of extras) {
    if (wordCount(blocksText(draft.body)) >= minWords) break;
    const fact = blocksText(extra.slice(1));
    if (blocksText(draft.body).toLowerCase().includes(fact.split('\n')[0].toLowerCase())) continue;
    const heading = extra[0].type === 'heading' ? extra[0].text : '';
    if (draft.body.some((b) => b.type === 'heading' && b.text === heading)) continue;
    draft.body.push(...extra);
  }
  draft.body.push(p(pick(r, SUPPLY_CLOSERS)(ing)));
}

/** One or two sentences from the opening paragraph, long enough for a card or a fallback meta description. */
export function summaryOf(draft: ArticleDraft): string {
  const ing = BY_KEY.get(draft.about[0])!;
  const opening = draft.body.find((b) => b.type === 'paragraph');
  const sentences = blocksText(opening ? [opening] : []).split(/(?<=[.?]) /);
  let out = '';
  for (const s of sentences) {
    if (out.length >= 80 || (out + ' ' + s).length > 240) break;
    out = out === '' ? s : `${out} ${s}`;
  }
  return out.length >= 60 ? out : `${out} ${ing.what.split(/(?<=\.) /)[0]}`.trim();
}
