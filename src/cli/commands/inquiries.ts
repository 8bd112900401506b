import { renameSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { oneOf, wholeNumber } from '../flags.js';
import { EXIT_PROBLEMS, stdout } from '../output.js';

const DATA_DIR_HELP = 'where `site serve` stores inquiries';

async function open(dataDir: string) {
  const { openStore } = await import('../../serve/store.js');
  return openStore(dataDir, { readonly: true });
}

const limitOf = (value: string): number => wholeNumber(value, '--limit', 0);

export function registerInquiries(program: Command, ctx: CommandContext): void {
  const inquiries = program.command('inquiries').description('list, show and export the inquiries `site serve` received');

  inquiries
    .command('list', { isDefault: true })
    .description('the newest inquiries (spam-flagged ones only with --all)')
    .option('--data-dir <dir>', DATA_DIR_HELP, '.site-data')
    .option('--limit <n>', 'how many, newest first; 0 for all', '20')
    .option('--all', 'include inquiries flagged as spam')
    .option('--json', 'print JSON')
    .action(async (flags: { dataDir: string; limit: string; all?: boolean; json?: boolean }) => {
      const limit = limitOf(flags.limit);
      const store = await open(flags.dataDir);
      try {
        const { formatTable, toJson } = await import('../../serve/export.js');
        const records = store.list({ limit, includeSpam: flags.all === true });
        if (flags.json) return stdout(toJson(records));
        stdout(formatTable(records));
        const total = store.count({ includeSpam: flags.all === true });
        if (total > records.length) stdout(`(${records.length} of ${total}; --limit 0 shows all)`);
      } finally {
        store.close();
      }
    });

  inquiries
    .command('show <id>')
    .description('one inquiry in full')
    .option('--data-dir <dir>', DATA_DIR_HELP, '.site-data')
    .option('--json', 'print JSON')
    .action(async (id: string, flags: { dataDir: string; json?: boolean }) => {
      const store = await open(flags.dataDir);
      try {
        const { formatDetail, terminalText } = await import('../../serve/export.js');
        const record = store.get(id);
        if (!record) {
          process.stderr.write(`site inquiries: no inquiry with id ${JSON.stringify(terminalText(id, 60))} in ${store.file}\n`);
          return ctx.setExitCode(EXIT_PROBLEMS);
        }
        stdout(flags.json ? JSON.stringify(record, null, 2) : formatDetail(record));
      } finally {
        store.close();
      }
    });

  inquiries
    .command('export')
    .description('every inquiry, oldest first, as CSV or JSON')
    .requiredOption('--format <format>', 'csv or json')
    .option('--out <file>', 'write to this file instead of stdout')
    .option('--data-dir <dir>', DATA_DIR_HELP, '.site-data')
    .option('--all', 'include inquiries flagged as spam')
    .action(async (flags: { format: string; out?: string; dataDir: string; all?: boolean }) => {
      const format = oneOf(flags.format, '--format', ['csv', 'json'] as const);
      const store = await open(flags.dataDir);
      try {
        const { toCsv, toJson } = await import('../../serve/export.js');
        const records = store.list({ order: 'asc', includeSpam: flags.all === true });
        const text = format === 'csv' ? toCsv(records) : toJson(records);
        if (!flags.out) return void process.stdout.write(text);
        // Written beside and renamed: a reader never sees half an export.
        const tmp = `${flags.out}.tmp-${process.pid}`;
        writeFileSync(tmp, text, { mode: 0o600 });
        renameSync(tmp, flags.out);
        process.stderr.write(`site inquiries: ${records.length} inquiries written to ${flags.out}\n`);
      } finally {
        store.close();
      }
    });
}
