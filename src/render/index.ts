/** The render stage's API (docs/CONTRACTS.md "render"). */
export { createSiteModel, type AssetRefs, type SiteModel } from '../model/model.js';
export {
  renderRoute,
  renderRouteParts,
  routeFacts,
  render404,
  render500,
  renderErrorFallback,
  chromePiece,
  TEMPLATE_OF,
  type RouteFacts,
  type DocumentParts,
} from './page.js';
export { productArtwork } from '../model/artwork.js';
export { RouteBindingError } from '../model/view.js';
