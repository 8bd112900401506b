import type { RouteRecord } from '../load/schema.js';
import type { HeadData } from '../render/head.js';
import type { SiteModel } from '../render/model.js';
import type { Crumb, View } from '../render/view.js';

/** What every screen template receives: the view narrowed to its own screen kind. */
export interface ScreenProps<S extends View['screen']> {
  model: SiteModel;
  route: RouteRecord;
  view: Extract<View, { screen: S }>;
  head: HeadData;
  crumbs: Crumb[];
}
