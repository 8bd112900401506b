/**
 * Process tests run the compiled CLI (build/), not src/: they must fail, and
 * say how to fix it, when build/ is missing or older than the source it was
 * compiled from, rather than test yesterday's code.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIX = "run `npm run compile` (the README's test command, `npm test`, does it first)";

export function requireFreshBuild(): void {
  const stale: string[] = [];
  for (const source of fg.sync(['src/**/*.{ts,tsx}', '!src/client/**'], { cwd: ROOT })) {
    const compiled = path.join(ROOT, 'build', source.replace(/\.tsx?$/, '.js'));
    if (!existsSync(compiled)) throw new Error(`${path.relative(ROOT, compiled)} is missing: ${FIX}`);
    if (statSync(path.join(ROOT, source)).mtimeMs > statSync(compiled).mtimeMs) stale.push(source);
  }
  // bin/site runs the bundle made from build/src/ after tsc (scripts/bundle-cli.ts).
  const bundle = path.join(ROOT, 'build/bundle/cli.js');
  if (!existsSync(bundle)) throw new Error(`build/bundle/cli.js is missing: ${FIX}`);
  const bundledCli = statSync(bundle).mtimeMs;
  for (const compiled of fg.sync(['build/src/**/*.js'], { cwd: ROOT }))
    if (statSync(path.join(ROOT, compiled)).mtimeMs > bundledCli) stale.push(`${compiled} (the CLI's bundle)`);
  const manifest = path.join(ROOT, 'build/client/.vite/manifest.json');
  if (!existsSync(manifest)) throw new Error(`build/client/.vite/manifest.json is missing: ${FIX}`);
  const bundled = statSync(manifest).mtimeMs;
  for (const source of fg.sync(['src/client/**/*', 'src/core/**/*'], { cwd: ROOT }))
    if (statSync(path.join(ROOT, source)).mtimeMs > bundled) stale.push(`${source} (browser bundle)`);
  if (stale.length > 0)
    throw new Error(`build/ is older than ${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ` and ${stale.length - 5} more` : ''}: ${FIX}`);
}
