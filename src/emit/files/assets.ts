/**
 * The browser bundle: Vite writes hashed files into build/client/assets/ and
 * a manifest naming them; the build copies them into dist/assets/ and gives
 * the templates their URLs.
 */
import { UserError } from '../../core/errors.js';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SiteWriter } from '../output/site-writer.js';
import type { AssetRefs } from '../../model/model.js';

/** The client bundle is missing or incomplete; the message says what to run. */
export class AssetsMissingError extends UserError {
  override name = 'AssetsMissingError';
}

interface ManifestChunk {
  file: string;
  css?: string[];
  isEntry?: boolean;
}

/** The project root: the nearest folder above this module with package.json (works from src/ and build/src/). */
export function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (no package.json above src/emit/files)');
    dir = up;
  }
  return dir;
}

export const defaultClientDir = (): string => path.join(projectRoot(), 'build', 'client');

/** Reads Vite's manifest and returns the entry URLs; throws AssetsMissingError naming the fix. */
export function readAssetRefs(clientDir: string): AssetRefs {
  const manifestFile = path.join(clientDir, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) {
    throw new AssetsMissingError(`the browser bundle is missing (${manifestFile} not found); run \`npm run compile\` first`);
  }
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const entry = (key: string): string => {
    const chunk = manifest[key];
    if (chunk === undefined) {
      throw new AssetsMissingError(`${manifestFile} has no entry "${key}"; run \`npm run compile\` to rebuild the browser bundle`);
    }
    if (!existsSync(path.join(clientDir, chunk.file))) {
      throw new AssetsMissingError(`${path.join(clientDir, chunk.file)} is named by the manifest but missing; run \`npm run compile\``);
    }
    return '/' + chunk.file;
  };
  return { css: entry('styles.css'), js: entry('main.ts'), search: entry('search.ts') };
}

/** Copies build/client/assets/** into the output folder's `assets/`; returns the copied files relative to it. */
export async function copyAssets(clientDir: string, writer: SiteWriter): Promise<string[]> {
  const from = path.join(clientDir, 'assets');
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(from, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
  return writer.copy(files.map((f) => ({ from: path.join(from, ...f.split('/')), path: `assets/${f}` })));
}
