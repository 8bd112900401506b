/**
 * Which folder of src/ may import which. The rules are read from the table in
 * README.md (between the import-rules markers), so the table a reader sees and
 * the rules `npm test` enforces are one list. A folder the table does not name
 * may import nothing in src/ and be imported by nothing, until it is added.
 */
const { readFileSync } = require('node:fs');
const path = require('node:path');

function importTable() {
  const readme = readFileSync(path.join(__dirname, 'README.md'), 'utf8');
  const block = /<!-- import-rules -->([\s\S]*?)<!-- \/import-rules -->/.exec(readme);
  if (!block) throw new Error('README.md has no <!-- import-rules --> table');
  const table = new Map();
  for (const line of block[1].split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !/^`[a-z-]+\/`$/.test(cells[1])) continue;
    const folder = cells[1].slice(1, -2);
    const allowed = [...cells[2].matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]);
    table.set(folder, allowed);
  }
  return table;
}

const table = importTable();
const folders = [...table.keys()];
const alternatives = (names) => names.map((n) => n.replace(/[-]/g, '\\-')).join('|');

module.exports = {
  forbidden: [
    ...[...table].map(([folder, allowed]) => ({
      name: `${folder}-imports`,
      comment: `src/${folder}/ may import only ${allowed.length ? allowed.map((a) => `src/${a}/`).join(', ') : 'nothing else in src/'} (README.md, "Which folder may import which")`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(?!(?:${alternatives([folder, ...allowed])})/)[^/]+/` },
    })),
    {
      name: 'unlisted-folder',
      comment: 'every folder of src/ is in the README import table',
      severity: 'error',
      from: { path: `^src/(?!(?:${alternatives(folders)})/)[^/]+/` },
      to: { path: '^src/' },
    },
    {
      name: 'src-imports-tests',
      comment: 'production code does not import tests or benchmarks',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(tests|bench)/' },
    },
    {
      name: 'no-circular',
      comment: 'modules of src/ do not import each other in a circle',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(build|dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js'] },
  },
};
