/**
 * `npm run bench`: runs every benchmark section that exists and prints its
 * figures. Each section is a module `bench/<name>.bench.ts` exporting
 * `run(args: string[]): Promise<void>`; `npm run bench -- build` runs one.
 * Figures are medians of several runs: these machines are shared and noisy.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SECTIONS = ['check', 'build', 'floor', 'audit', 'serve', 'dev'];

async function main(): Promise<void> {
  // Section names come first; everything from the first flag on belongs to the sections.
  const args = process.argv.slice(2);
  const firstFlag = args.findIndex((a) => a.startsWith('-'));
  const wanted = firstFlag < 0 ? args : args.slice(0, firstFlag);
  const sections = wanted.length > 0 ? wanted : SECTIONS;
  process.env.NODE_ENV = 'production';
  for (const name of sections) {
    const url = new URL(`./${name}.bench.js`, import.meta.url);
    if (!existsSync(fileURLToPath(url))) {
      if (wanted.length > 0) throw new Error(`no benchmark section "${name}" (expected bench/${name}.bench.ts)`);
      continue;
    }
    process.stdout.write(`\n== ${name} ==\n`);
    const mod = (await import(url.href)) as { run(args: string[]): Promise<void> };
    await mod.run(process.argv.slice(2));
  }
}

await main();
