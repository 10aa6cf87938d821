import { readFile } from 'node:fs/promises';
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../context.js';
import { printTable } from '../output.js';

/** The media type the ledger reads each list format as. */
const SOURCE_TYPES = { un: 'application/xml', csv: 'text/csv' } as const;
type ListSource = keyof typeof SOURCE_TYPES;

function sourceOption(text: string): ListSource {
  const source = text.toLowerCase();
  if (!Object.hasOwn(SOURCE_TYPES, source)) throw new InvalidArgumentError('must be un or csv');
  return source as ListSource;
}

function decisionArgument(text: string): 'clear' | 'confirm' {
  if (text !== 'clear' && text !== 'confirm') throw new InvalidArgumentError('must be clear or confirm');
  return text;
}

/** Sanctions and asset-freeze screening (docs/compliance.md): list imports and the compliance queue; admins only. */
export function registerScreeningCommands(program: Command, ctx: Context): void {
  const screening = program.command('screening').description('sanctions and asset-freeze lists, and the hits holding payouts (admins)');
  screening
    .command('import <file>')
    .description('import a version of a list: the UN consolidated XML (--source un) or a national list CSV (--source csv --list NAME)')
    .requiredOption('--source <source>', 'un or csv', sourceOption)
    .option('--list <name>', 'the national list a CSV file is a version of (e.g. tr-masak-6415)')
    .action(async (file: string, o: { source: ListSource; list?: string }) => {
      let bytes: Buffer;
      try {
        bytes = await readFile(file);
      } catch (error) {
        throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
      }
      const query = { source: o.source, ...(o.list ? { list: o.list } : {}) };
      const imported = await ctx.client().upload('importScreeningList', { query }, { bytes, contentType: SOURCE_TYPES[o.source] });
      ctx.emit(imported, () => {
        const { version } = imported;
        ctx.io.stdout.write(
          imported.created
            ? `Imported ${version.source} (${version.entries} entries, generated ${version.generated ?? 'unknown'}) as version ${version.versionId}; open payouts are screened again against it.\n`
            : `This file was imported before as version ${version.versionId} of ${version.source}; nothing changed.\n`,
        );
      });
    });

  screening
    .command('lists')
    .description('every imported list version, newest first; * marks the current one of each list')
    .action(async () => {
      const { data } = await ctx.client().call('listScreeningLists', {});
      ctx.emit(data, () =>
        printTable(ctx.io.stdout, data, [
          ['', (v) => (v.current ? '*' : '')],
          ['VERSION', (v) => v.versionId],
          ['SOURCE', (v) => v.source],
          ['ENTRIES', (v) => v.entries],
          ['GENERATED', (v) => v.generated],
          ['IMPORTED', (v) => v.importedAt],
        ]),
      );
    });

  screening
    .command('hits')
    .description('the compliance queue: hits awaiting a decision, oldest first (or --status CLEARED, CONFIRMED, DECIDED)')
    .option('--status <status>', 'OPEN (default), CLEARED, CONFIRMED or DECIDED')
    .action(async (o: { status?: 'OPEN' | 'CLEARED' | 'CONFIRMED' | 'DECIDED' }) => {
      const { data } = await ctx.client().call('listScreeningHits', { query: o.status ? { status: o.status } : {} });
      ctx.emit(data, () =>
        printTable(ctx.io.stdout, data, [
          ['HIT', (hit) => hit.hitId],
          ['STATUS', (hit) => hit.status],
          ['RECORD', (hit) => hit.referenceNo ?? hit.subjectId],
          ['NAME', (hit) => hit.screenedName],
          ['ENTRY', (hit) => `${hit.entry.source} ${hit.entry.reference ?? hit.entry.entryId}: ${hit.entry.matchedName}`],
          ['SCORE', (hit) => hit.score.toFixed(2)],
          ['DECISIONS', (hit) => hit.decisions.map((given) => `${given.decision} by ${given.email ?? given.operatorId}`).join('; ')],
        ]),
      );
    });

  screening
    .command('decide <hitId> <decision>')
    .description('clear (not the listed person: the hold lifts) or confirm (frozen); two admins must agree')
    .requiredOption('--note <note>', 'why: what was checked (kept in the audit log)')
    .action(async (hitId: string, decisionText: string, o: { note: string }) => {
      const decision = decisionArgument(decisionText);
      const hit = await ctx.client().call('decideScreeningHit', { params: { hitId }, body: { decision, note: o.note } });
      ctx.emit(hit, () => {
        ctx.io.stdout.write(
          hit.status === 'OPEN'
            ? `Recorded your decision (${decision}); a second admin must agree before it takes effect.\n`
            : `Hit ${hit.hitId} is ${hit.status}.\n`,
        );
      });
    });
}
