/**
 * Where `site dev` takes the render API from. At start-up, the compiled
 * module (build/src/render/index.js) when it is newer than every source file
 * it was made from: a native import, fast. Once a source file of the render
 * code changes (or when the compiled one is stale or missing), Vite's SSR
 * module loading of `src/render/index.ts`: Vite transforms the changed file
 * and re-evaluates its importers, so a template edit shows without a restart
 * or a compile. Vite is loaded only then, and never watches anything itself:
 * the dev server's own watcher tells it which file changed.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type RenderApi = typeof import('../render/index.js');

/** The folders of src/ whose code the render API runs (the load and check code is not reloaded). */
export const RENDER_SOURCE_DIRS = ['render', 'templates', 'model', 'core'] as const;

const SOURCE_FILE = /\.(ts|tsx)$/;

/** Whether `file` (absolute) is render code under `sourceRoot`/src/. */
export function isRenderSource(sourceRoot: string, file: string): boolean {
  const rel = path.relative(path.join(sourceRoot, 'src'), file).split(path.sep);
  return rel.length > 1 && (RENDER_SOURCE_DIRS as readonly string[]).includes(rel[0]) && SOURCE_FILE.test(file);
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The compiled render module of `sourceRoot` when every render source has a newer compiled file; else null. */
export function freshCompiledModule(sourceRoot: string): string | null {
  const entry = path.join(sourceRoot, 'build', 'src', 'render', 'index.js');
  if (!existsSync(entry)) return null;
  for (const dir of RENDER_SOURCE_DIRS) {
    for (const file of sourceFiles(path.join(sourceRoot, 'src', dir))) {
      const compiled = path.join(sourceRoot, 'build', path.relative(sourceRoot, file)).replace(SOURCE_FILE, '.js');
      if (!existsSync(compiled) || statSync(compiled).mtimeMs < statSync(file).mtimeMs) return null;
    }
  }
  return entry;
}

export interface RenderSource {
  /** The render API to use now. */
  current(): Promise<RenderApi>;
  /** 'compiled' or 'vite': where `current` comes from. */
  readonly kind: 'compiled' | 'vite';
  /** A render source file changed: the next `current` reflects it. */
  invalidate(file: string): void;
  close(): Promise<void>;
}

type ViteServer = import('vite').ViteDevServer;

export function createRenderSource(sourceRoot: string): RenderSource {
  const compiled = freshCompiledModule(sourceRoot);
  let kind: 'compiled' | 'vite' = compiled === null ? 'vite' : 'compiled';
  let vite: Promise<ViteServer> | null = null;
  let compiledApi: Promise<RenderApi> | null = null;
  let closed = false;

  const startVite = (): Promise<ViteServer> => {
    vite ??= import('vite')
      .catch((err: unknown) => {
        throw new Error(
          `site dev loads edited render code through Vite, which could not be imported (${err instanceof Error ? err.message : String(err)}); install the dev dependencies (npm ci), or run \`npm run compile\` and restart to use the compiled templates`,
        );
      })
      .then(({ createServer }) =>
        createServer({
          configFile: false,
          root: sourceRoot,
          appType: 'custom',
          logLevel: 'warn',
          clearScreen: false,
          // No watcher of Vite's own (it would walk the whole root): invalidate() says what changed.
          server: { middlewareMode: true, hmr: false, ws: false, watch: null },
          optimizeDeps: { noDiscovery: true, include: [] },
          // As tsc compiles them (tsconfig.json, "react-jsx"): production JSX, the same markup as `site build`.
          oxc: { jsx: { runtime: 'automatic', development: false } },
        }),
      );
    return vite;
  };

  return {
    get kind() {
      return kind;
    },
    async current(): Promise<RenderApi> {
      if (kind === 'compiled') {
        compiledApi ??= import(pathToFileURL(compiled!).href) as Promise<RenderApi>;
        return compiledApi;
      }
      const server = await startVite();
      return (await server.ssrLoadModule('/src/render/index.ts')) as RenderApi;
    },
    invalidate(file: string): void {
      if (closed) return;
      if (kind === 'compiled') {
        // From now on the source is the truth: Vite loads every module fresh from it.
        kind = 'vite';
        return;
      }
      void startVite().then((server) => {
        for (const mod of server.moduleGraph.getModulesByFile(file) ?? []) server.moduleGraph.invalidateModule(mod);
      });
    },
    async close(): Promise<void> {
      closed = true;
      if (vite) await (await vite).close();
    },
  };
}
