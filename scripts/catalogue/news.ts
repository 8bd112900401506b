/** The seven news items of spec section 2, in date order. */
import type { Block } from '../../src/core/schema.js';

export interface NewsDraft {
  slug: string;
  title: string;
  date: string;
  summary: string;
  body: Block[];
  keywords: string;
}

const p = (text: string): Block => ({ type: 'paragraph', text });
const h2 = (text: string): Block => ({ type: 'heading', level: 2, text });
const ul = (items: string[]): Block => ({ type: 'list', items });

export const NEWS: NewsDraft[] = [
  {
    slug: 'reference-standard-compounds-business-launched',
    title: 'We Launch a Reference Standard Compounds Business',
    date: '2022-05-10',
    summary: 'Our laboratory now supplies high-purity plant compounds as reference standards and research materials, with full analytical documentation.',
    keywords: 'reference standards, plant compounds, HPLC, research materials, GMP factory',
    body: [
      p(
        'After several years of isolating single compounds for our own quality control, we have opened a reference-product business line. Laboratories, universities and manufacturers can now buy high-purity plant compounds from us in milligram to gram amounts, each lot supplied with its HPLC chromatogram, and NMR and mass spectra on request.',
      ),
      h2('Why we started'),
      p(
        'Standardized extracts are only as reliable as the standards used to measure them. Many of our customers told us that reference compounds for less common markers, such as cepharanthine, geniposidic acid or the Euphorbia diterpenoids, were hard to find or slow to arrive. Because our purification team already makes these compounds at 98% and above, offering them to others was a natural step.',
      ),
      h2('What is available'),
      ul([
        'Alkaloids such as cepharanthine, tetrahydropalmatine and berberine',
        'Iridoids such as geniposide, genipin, aucubin and geniposidic acid',
        'Flavonoids such as fisetin, apigenin, dihydromyricetin and hesperidin',
        'Diterpenoids from Euphorbia helioscopia for structure-activity studies',
      ]),
      p(
        'Each compound is characterised in our own laboratory, and purity is confirmed by HPLC against an independent standard where one exists. Compounds are packed in amber glass vials under nitrogen and shipped cold when required.',
      ),
      p(
        'The reference line is run by the same team that releases our bulk extracts, so improvements in one benefit the other. Buyers of bulk material can now ask for the matching reference compound with their order, making it easier to verify our certificates in their own laboratories.',
      ),
    ],
  },
  {
    slug: 'health-product-raw-materials-conference',
    title: 'At the Health Product Raw Materials Conference',
    date: '2022-09-22',
    summary:
      'Our technical and sales teams joined a national conference on raw materials for health products to discuss standardization, traceability and new ingredients.',
    keywords: 'health product raw materials, conference, standardization, traceability, plant extracts',
    body: [
      p(
        'Members of our technical and sales teams attended this year’s conference on raw materials for health products, which brought together ingredient makers, supplement brands, testing laboratories and regulators for two days of talks and meetings.',
      ),
      h2('Themes of the conference'),
      ul([
        'Standardization: moving from UV to HPLC methods for marker compounds',
        'Traceability of botanical raw materials from field to finished product',
        'New food raw material approvals and what they mean for formulators',
        'Contaminant limits for heavy metals, pesticides and polycyclic aromatic hydrocarbons',
      ]),
      p(
        'Our quality manager presented a short talk on why polysaccharide tests for mushroom extracts should use beta-glucan-specific methods, since simple UV tests also count starch from grain-grown mycelium. The session led to a lively discussion with brand owners who had seen large differences between suppliers’ certificates.',
      ),
      h2('What we took home'),
      p(
        'Buyers are asking for more evidence, not just lower prices. Several visitors wanted full traceability documents for herbs such as astragalus and licorice, and others asked about organic certification for mushroom extracts. Both have since become priorities for us, and we expanded our organic mushroom range the following year.',
      ),
      p(
        'We thank the organisers and everyone who visited our table. If we did not get the chance to talk, our team is happy to follow up by e-mail with technical documents or samples.',
      ),
    ],
  },
  {
    slug: 'visit-to-our-planting-base',
    title: 'A Visit to Our Herb Planting Base',
    date: '2023-03-16',
    summary: 'Our quality team visited the cooperative farms that grow raw herbs for our extracts, to review cultivation records and pre-harvest testing.',
    keywords: 'planting base, herb cultivation, GAP, traceability, raw material quality',
    body: [
      p(
        'In March our quality and purchasing teams spent three days at the planting base where partner cooperatives grow several of the herbs we extract, including astragalus, gynostemma and mulberry. Visits like this are part of how we keep the raw material, and therefore the extract, consistent from year to year.',
      ),
      h2('What we checked'),
      ul([
        'Seed and seedling sources and the species identity of each field',
        'Field records of fertiliser and any plant protection products used',
        'Pre-harvest samples for pesticide residues and heavy metals',
        'Drying and storage conditions at the cooperative warehouses',
      ]),
      p(
        'The farmers showed us the new drying sheds built last year, which keep harvested roots off the ground and out of the rain. Faster, cleaner drying reduces mould and helps keep microbial counts low before the material reaches our factory.',
      ),
      h2('Why it matters to buyers'),
      p(
        'Most quality problems in botanical extracts start before extraction: the wrong species, a field sprayed too close to harvest, or roots dried slowly on the ground. By agreeing cultivation practices with the cooperatives and testing before harvest, we can offer buyers traceability documents that link each lot of extract back to its fields.',
      ),
      p(
        'We also discussed expanding the mulberry plantation, since demand for mulberry leaf extract standardized to 1% DNJ has grown steadily. Planting will begin next spring.',
      ),
    ],
  },
  {
    slug: '2023-health-ingredients-exhibition',
    title: 'Meet Us at the 2023 Health Ingredients Exhibition',
    date: '2023-06-21',
    summary:
      'We exhibited our herb extracts, mushroom extracts and plant proteins at the 2023 health ingredients exhibition and met buyers from more than thirty countries.',
    keywords: '2023 exhibition, health ingredients, herb extracts, mushroom extracts, plant protein',
    body: [
      p(
        'Our team spent three busy days at the 2023 health ingredients exhibition, showing samples from across our range and meeting buyers, formulators and distributors from more than thirty countries.',
      ),
      h2('On the stand'),
      ul([
        'Shiitake, reishi, lion’s mane and cordyceps extracts, including our first organic grades',
        'Pueraria extracts, from puerarin 98% to Pueraria mirifica root extract',
        'Monomers such as curcumin 95%, quercetin and dihydromyricetin',
        'Pea, rice and pumpkin seed proteins for plant-based products',
      ]),
      p(
        'Mushroom extracts drew the most questions, particularly about the difference between fruiting body and mycelium products and how beta-glucans are measured. Many visitors were also looking for cleaner-label sweeteners and asked about stevia, monk fruit and allulose.',
      ),
      h2('Follow-up'),
      p(
        'We sent free samples to every visitor who asked for one within a week of the show, together with specifications and certificates of analysis. Several samples have already turned into trial orders, and two distributors are now discussing private-label projects with us.',
      ),
      p(
        'Thank you to everyone who visited. If you missed us, you can still request the same samples and documents through our contact page; our team answers within one working day.',
      ),
      p(
        'Next year we plan to bring application samples as well as raw powders: a mushroom coffee, a plant protein shake and a sugar-reduced tea drink made with our ingredients, so that visitors can taste how each ingredient behaves in a finished product.',
      ),
    ],
  },
  {
    slug: 'new-extract-product-launch-organic-mushroom-extracts',
    title: 'New Product Launch: Organic Mushroom Extracts',
    date: '2023-11-08',
    summary: 'We have launched eight certified organic mushroom extracts made from fruiting bodies, including reishi, lion’s mane, chaga and cordyceps.',
    keywords: 'organic mushroom extract, new product, reishi, lion’s mane, chaga, cordyceps',
    body: [
      p(
        'We are pleased to announce a new line of eight certified organic mushroom extracts: cordyceps, ganoderma lucidum (reishi), shiitake, coriolus versicolor (turkey tail), hericium erinaceus (lion’s mane), chaga, maitake and agaricus blazei.',
      ),
      h2('How they are made'),
      p(
        'All eight are made only from fruiting bodies, never from mycelium grown on grain, so they contain no starch filler. The mushrooms are grown on logs, sawdust blocks or composted straw under organic rules, dried at low temperature and extracted with hot water. No synthetic solvents are used at any stage.',
      ),
      h2('Specifications'),
      ul([
        'Polysaccharides 30% by UV, with beta-glucan reported by an enzymatic method',
        'Organic certification for the raw material and for the extraction process',
        'Heavy metals, pesticide residues and microbial limits tested on every lot',
        'Packing in 1-10kg foil bags or 25kg drums; free samples available',
      ]),
      p(
        'The organic extracts suit mushroom coffees, teas, capsules and gummies for brands that carry organic claims. They complement our conventional mushroom extracts, which remain available for buyers who do not need certification.',
      ),
      p(
        'To request a sample, a specification sheet or a quote, please use the inquiry form on any product page. We ship sample orders within one to two working days.',
      ),
      p(
        'The organic line took more than a year to prepare. Growers had to convert substrates and logs, our extraction lines were inspected for organic handling, and every input, from cleaning agents to packing liners, was reviewed. We would like to thank the farms and the certification body for their patience and support.',
      ),
    ],
  },
  {
    slug: '2024-natural-ingredients-exhibition',
    title: '2024 Natural Ingredients Exhibition Highlights',
    date: '2024-06-19',
    summary:
      'At the 2024 natural ingredients exhibition we presented our sweetener range, NMN and new healthy-ageing ingredients, and met many returning customers.',
    keywords: '2024 exhibition, natural ingredients, NMN, spermidine, allulose, sweeteners',
    body: [
      p(
        'For the second year running our team exhibited at a major natural ingredients show. This year’s stand focused on healthy-ageing ingredients and sugar reduction, two areas where customer interest has grown fastest.',
      ),
      h2('What we presented'),
      ul([
        'NMN 99% and NMNH, with stability data for different storage conditions',
        'Spermidine from wheat germ, fisetin 98% and apigenin 98%',
        'Sweeteners: stevia Reb A, monk fruit mogroside V, erythritol and allulose',
        'BCAA, creatine monohydrate and citrulline for sports nutrition',
      ]),
      p(
        'Visitors wanted to know more about storage of NMN, which absorbs moisture and slowly breaks down to nicotinamide in warm conditions. Our quality team shared results of our own stability tests and recommended cool storage and foil packing with desiccant.',
      ),
      h2('Conversations that stood out'),
      p(
        'Many visitors were returning customers, which was especially rewarding. Several brands asked for combined shipments of extracts and sweeteners, so we now offer consolidated orders across categories from one warehouse.',
      ),
      p(
        'Thank you to our customers and partners for their visits. Samples and documents discussed at the show can be requested through our contact page at any time.',
      ),
      p(
        'We also used the show to gather feedback on our documentation. Buyers asked for stability data in more of our specifications and for clearer statements on allergens and solvents, and both requests are now being added to our standard product documents.',
      ),
    ],
  },
  {
    slug: 'new-application-fields-of-dihydromyricetin',
    title: 'New Application Fields of Dihydromyricetin',
    date: '2024-12-05',
    summary:
      'Dihydromyricetin from vine tea is moving beyond after-drinking products into beverages, oral care and food preservation; here is what buyers should know.',
    keywords: 'dihydromyricetin, DHM, vine tea, new applications, after-drinking, beverages',
    body: [
      p(
        'Dihydromyricetin (DHM), the flavanonol from vine tea, is best known as the active ingredient of after-drinking products. Over the past two years, our customers have started to use it in several new fields, and research has followed.',
      ),
      h2('Where DHM is going'),
      ul([
        'Functional beverages, where its slightly sweet-bitter taste suits tea-based drinks',
        'Oral care products, based on laboratory studies of its activity against oral bacteria',
        'Food preservation, where it is studied as a natural antioxidant for oils',
        'Metabolic health supplements, following small human studies on blood glucose and liver fat',
      ]),
      p(
        'These fields are at different stages. Beverages are already on the market, while oral care and food preservation uses are still mostly in development. Health claims for DHM are not authorised in most markets, so brands should describe it carefully.',
      ),
      h2('What this means for formulators'),
      p(
        'DHM dissolves poorly in cold water but better when warm, and it is sensitive to alkaline conditions in solution. For drinks, we recommend adding it to the warm phase and keeping the pH slightly acidic. Our 98% grade is a white crystalline powder, while the 90% grade offers a lower cost for beverages.',
      ),
      p(
        'We supply DHM in 1-10kg foil bags and 25kg drums, with free samples for development work. Contact our application team if you want to discuss a new use.',
      ),
    ],
  },
];
