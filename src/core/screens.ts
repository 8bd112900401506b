/**
 * Which page of data/pages/ each page-backed screen shows. The check stage
 * verifies the binding and the render stage follows it, so they share one table.
 * Type-only imports: render workers must not load zod for this.
 */
import type { Page, Screen } from './schema.js';

export const PAGE_SCREENS: Readonly<Partial<Record<Screen, Page['kind']>>> = {
  home: 'home',
  about: 'about',
  contact: 'contact',
  knowledge: 'knowledge',
  news: 'news',
  search: 'search',
  'search-not-found': 'search-not-found',
  thanks: 'thanks',
};
