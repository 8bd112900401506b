/**
 * The connection as the page sees it: the online/offline flag on <html> with
 * the visible notice (spec section 4), and whether speculative work such as
 * prefetching is worth the buyer's bandwidth.
 */
import { PREFETCH } from './constants.js';

interface NetworkInformationLike {
  effectiveType?: string;
  saveData?: boolean;
}

/** False when offline, on a 2g-class connection or with data saver on. */
export function canSpeculate(nav: Navigator = navigator): boolean {
  if (!nav.onLine) return false;
  const connection = (nav as Navigator & { connection?: NetworkInformationLike }).connection;
  if (!connection) return true;
  if (connection.saveData) return false;
  return !(connection.effectiveType && PREFETCH.slowConnections.includes(connection.effectiveType));
}

/** Mirrors navigator.onLine into `data-online` and the #offline-notice. */
export function initOnlineFlag(doc: Document = document): void {
  const notice = doc.getElementById('offline-notice');
  const apply = () => {
    const online = navigator.onLine;
    doc.documentElement.dataset.online = String(online);
    if (notice) notice.hidden = online;
  };
  apply();
  window.addEventListener('online', apply);
  window.addEventListener('offline', apply);
  // A page restored from the back/forward cache missed the events in between.
  window.addEventListener('pageshow', apply);
}
