/**
 * The open tabs of `site dev` and what they are told: each tab's dev script
 * holds a server-sent event stream open, naming its page and the fingerprint
 * of the HTML it shows. After a change every tab gets the check's errors, and
 * a tab whose page now renders differently gets `reload`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseTarget } from '../serve/paths.js';
import type { OverlayItem } from './client.js';

/** A tab with the dev script open: its page, and the fingerprint of the HTML it shows. */
interface Tab {
  res: ServerResponse;
  path: string;
  hash: string;
}

export interface LiveReload {
  /** Answers `/__site/events?path=…&hash=…` with the stream. */
  open(req: IncomingMessage, res: ServerResponse, search: string): void;
  /** Sends the errors to every tab and `reload` to those whose page changed (every one with `all`); returns how many reload. */
  notify(all: boolean): number;
  close(): void;
}

const send = (res: ServerResponse, event: string, data: unknown): void => void res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/** `hashAt(path)`: the fingerprint of what a tab at `path` would be shown now; `errors()`: the check's errors now. */
export function createLiveReload(hashAt: (path: string) => string, errors: () => OverlayItem[]): LiveReload {
  const tabs = new Set<Tab>();
  return {
    open(req, res, search) {
      const params = new URLSearchParams(search);
      const target = parseTarget(params.get('path') ?? '/');
      const tab: Tab = { res, path: target.ok ? target.path : '/', hash: params.get('hash') ?? '' };
      res.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' });
      // A dropped stream (a restart) is opened again soon; the server then compares the tab with its page at once.
      res.write('retry: 300\n\n');
      send(res, 'errors', errors());
      tabs.add(tab);
      req.on('close', () => tabs.delete(tab));
      // A change between the page's answer and this stream: the tab is already behind.
      if (hashAt(tab.path) !== tab.hash) send(res, 'reload', {});
    },
    notify(all) {
      let reloaded = 0;
      const now = errors();
      for (const tab of tabs) {
        send(tab.res, 'errors', now);
        if (all || hashAt(tab.path) !== tab.hash) {
          send(tab.res, 'reload', {});
          reloaded++;
        }
      }
      return reloaded;
    },
    close() {
      for (const tab of tabs) tab.res.end();
      tabs.clear();
    },
  };
}
