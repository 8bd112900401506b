import type { RouteRecord } from '../core/schema.js';
import type { HeadData } from '../model/head.js';
import type { SiteModel } from '../model/model.js';
import type { Crumb, View } from '../model/view.js';

/** What every screen template receives: the view narrowed to its own screen kind. */
export interface ScreenProps<S extends View['screen']> {
  model: SiteModel;
  route: RouteRecord;
  view: Extract<View, { screen: S }>;
  head: HeadData;
  crumbs: Crumb[];
}
