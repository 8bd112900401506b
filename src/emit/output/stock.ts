/**
 * Taking stock of the temporary folder before anything is written into it:
 * what a recycled spare holds (takeInventory), and the page folders this
 * build needs made. The render threads run it at the prepare phase, a share
 * each (see ownerOf in atomic.ts).
 */
import { mkdirSync } from 'node:fs';
import { ownerOf, takeInventory, type RecordedFolder } from './atomic.js';
import { clearWay } from './clear-way.js';
import { statPages, type PagesToStat, type PageStatsTaken } from './page-stats.js';
import { folderOfTwin, insideRoot } from './paths.js';

export interface StockTask {
  /** Whether the folder is a recycled spare (else it is new and empty: nothing to list). */
  recycled: boolean;
  /** The pages' folders, relative with forward slashes. */
  dirs: string[];
  /** This task's share of the folder (see ownerOf in atomic.ts), of `parts`. */
  part: number;
  parts: number;
  /**
   * Pages get twins: a file `<dir>.html` beside a page folder in `dirs` is
   * left out of the inventory, as the page's writer replaces it (a twin the
   * build no longer wants is in the inventory, and goes).
   */
  twins: boolean;
  /**
   * The recycled folder's manifest file (incremental/up-to-date.ts), when
   * there may be one: what the folder held when a build last left it, so
   * that only the folders changed since are listed.
   */
  manifest?: string;
  /**
   * Pages whose stats to take once the folder is ready (see page-stats.ts);
   * only for a stock taken whole (`parts` 1), as other parts would still be
   * making their folders meanwhile.
   */
  pages?: PagesToStat;
}

/** What a recycled folder held (empty for a new one), relative to it, and the stats of the pages asked for. */
export interface Stock {
  files: string[];
  dirs: string[];
  pageStats?: PageStatsTaken;
}

/** Lists this share of `root` (see takeInventory for `recorded`) and makes the page folders of this share that it lacks. */
export function takeStock(root: string, task: StockTask, recorded?: RecordedFolder): Stock {
  const { part, parts } = task;
  let twinOfPage: ((file: string) => boolean) | undefined;
  if (task.twins) {
    const pageDirs = new Set(task.dirs);
    twinOfPage = (file) => {
      const folder = folderOfTwin(file);
      return folder !== null && pageDirs.has(folder);
    };
  }
  const inventory = task.recycled ? takeInventory(root, part, parts, twinOfPage, recorded) : { files: new Set<string>(), dirs: new Set<string>() };
  // Each part makes the folders of its own share, which only its own walk can have found.
  for (const dir of task.dirs) if (ownerOf(dir, parts) === part && !inventory.dirs.has(dir)) makeFolder(root, dir);
  const stock: Stock = { files: [...inventory.files], dirs: [...inventory.dirs] };
  if (task.pages !== undefined && task.recycled && parts === 1) stock.pageStats = statPages(root, task.pages);
  return stock;
}

/** mkdir -p of `dir` in the output folder, through whatever an earlier build left in the way (see clear-way.ts). */
function makeFolder(root: string, dir: string): void {
  try {
    mkdirSync(insideRoot(root, dir), { recursive: true });
  } catch {
    // Tried again even when nothing was cleared: another render thread may have cleared the same file on the way.
    clearWay(root, dir, 'folder');
    mkdirSync(insideRoot(root, dir), { recursive: true });
  }
}
