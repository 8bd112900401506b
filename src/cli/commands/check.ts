/**
 * `site check`: loads and checks `data/`, prints the findings. The stages are
 * imported inside the action so that `site --help` does not pay for zod.
 */
import { stat } from 'node:fs/promises';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { painter } from '../../core/paint.js';
import { EXIT_OK, EXIT_PROBLEMS, colorEnabled } from '../output.js';
import { UserError } from '../../core/errors.js';

interface CheckOptions {
  dataDir: string;
  json?: boolean;
  strict?: boolean;
  cacheDir?: string;
  /** False under --no-cache. */
  cache: boolean;
}

export function registerCheck(program: Command, ctx: CommandContext): void {
  program
    .command('check')
    .description('validate the catalogue in data/: schemas, routes, references, pagination, images')
    .option('--data-dir <dir>', 'the catalogue folder', 'data')
    .option('--json', 'print one JSON document {diagnostics, counts} instead of the text report')
    .option('--strict', 'treat warnings as errors')
    .option('--cache-dir <dir>', 'where to keep results for unchanged data and code (default: node_modules/.cache/site)')
    .option('--no-cache', 'load and check from scratch; read and write no cache')
    .addHelpText(
      'after',
      '\nExit codes: 0 consistent, 1 errors found (or warnings under --strict), 2 usage or configuration error.\nWith GITHUB_ACTIONS=true, findings are also printed as workflow annotations.',
    )
    .action(async (opts: CheckOptions) => ctx.setExitCode(await runCheck(opts)));
}

async function runCheck(opts: CheckOptions): Promise<number> {
  if (!(await isDirectory(opts.dataDir))) {
    throw new UserError(`the data directory "${opts.dataDir}" does not exist (pass the catalogue folder with --data-dir)`);
  }
  const [{ checkDataDir }, report] = await Promise.all([import('../../check/run.js'), import('../../check/report.js')]);
  // Lean, as the build loads it: the same findings in a fraction of the memory, and one cache entry for both
  // commands (a CI job that runs `site check` and then `site build` validates the catalogue once).
  const result = await checkDataDir(opts.dataDir, { cacheDir: opts.cache ? opts.cacheDir : false, lean: true });
  const diagnostics = report.applyStrict(result.diagnostics, opts.strict === true);
  const counts = report.countCatalogue(result.sizes, result.routes, diagnostics);

  let out: string;
  if (opts.json) out = report.formatJson(diagnostics, counts, { validated: result.validated, reused: result.reused, read: result.read });
  else {
    out = report.formatText(diagnostics, counts, painter(colorEnabled(process.stdout)));
    if (process.env.GITHUB_ACTIONS === 'true') out += report.formatAnnotations(diagnostics);
  }
  await writeStdout(out);
  return counts.diagnostics.error > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

/** Resolves once the report is flushed, so a piped reader gets all of it before the exit. */
function writeStdout(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (err) => (err ? reject(err) : resolve())));
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
