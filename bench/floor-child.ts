/**
 * One process of the floor benchmark (bench/floor.bench.ts): from a fresh
 * Node process, import the render code (React and the templates), read an
 * already validated catalogue (one v8-serialized file: the cheapest way any
 * build can have it), make the site model and render routes `part` of
 * `parts` (route i when i % parts === part) to strings with
 * renderRouteParts. No check, no file written, no link check, no sitemap:
 * everything a build must do besides is left out, so what this costs is a
 * lower bound of `site build` on this machine.
 *
 *   node build/bench/floor-child.js <catalogue.v8> <part> <parts>
 *
 * Prints one JSON line: milliseconds since the process started at each step.
 */
import { readFileSync } from 'node:fs';
import { deserialize } from 'node:v8';

process.env.NODE_ENV = 'production';
const [file, partArg = '0', partsArg = '1'] = process.argv.slice(2);
const part = Number(partArg);
const parts = Number(partsArg);
if (file === undefined || !(parts >= 1) || !(part >= 0 && part < parts)) {
  process.stderr.write('usage: floor-child <catalogue.v8> <part> <parts>\n');
  process.exit(2);
}

const { createSiteModel, renderRouteParts } = await import('../src/render/index.js');
const imported = performance.now();
const { catalogue, routes, assets } = deserialize(readFileSync(file)) as {
  catalogue: Parameters<typeof createSiteModel>[0];
  routes: Array<Parameters<typeof renderRouteParts>[1]>;
  assets: Parameters<typeof createSiteModel>[1];
};
const loaded = performance.now();
const model = createSiteModel(catalogue, assets);
const modelled = performance.now();
let pages = 0;
let chars = 0;
for (let i = part; i < routes.length; i += parts) {
  for (const piece of renderRouteParts(model, routes[i]).parts) chars += piece.length;
  pages++;
}
const rendered = performance.now();
process.stdout.write(JSON.stringify({ imported, loaded, modelled, rendered, pages, chars }) + '\n');
