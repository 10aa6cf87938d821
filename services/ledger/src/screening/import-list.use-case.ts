import { createHash } from 'node:crypto';
import type { PrismaClient, ScreeningListVersion } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { parseNationalListCsv, parseUnConsolidatedXml, ScreeningListError, UN_SOURCE, type ParsedList } from '@kasa/screening';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import type { ScreeningListRepository } from './screening-list.repository.js';
import { toScreeningListVersion } from './screening.views.js';

export interface ImportListDeps {
  db: PrismaClient;
  logger: Logger;
  screeningLists: ScreeningListRepository;
}

export interface ImportListInput {
  bytes: Buffer;
  source: 'un' | 'csv';
  /** The national list's name (`tr-masak-6415`); required for `csv`. */
  list?: string | undefined;
}

/** Room for a large national list's entries, beyond the transitions' 20 s. */
const IMPORT_TIMEOUT_MS = 120_000;

/** The file read as the format says, or a 400 naming where it went wrong; nothing is written before this succeeds. */
function parse(input: ImportListInput): ParsedList {
  if (input.source === 'csv' && !input.list) {
    throw AppError.validation([{ field: 'list', message: 'is required with source=csv (the national list, e.g. tr-masak-6415)' }]);
  }
  if (input.source === 'csv' && input.list === UN_SOURCE) {
    throw AppError.validation([{ field: 'list', message: `is the UN list's own name; import the UN list with source=un` }]);
  }
  if (input.source === 'un' && input.list) {
    throw AppError.validation([{ field: 'list', message: 'is only for source=csv: the UN list names itself' }]);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(input.bytes);
  } catch {
    throw AppError.validation(
      [{ field: '(body)', message: 'is not UTF-8 text' }],
      'The list file is not UTF-8 text; nothing was imported.',
    );
  }
  try {
    return input.source === 'un' ? parseUnConsolidatedXml(text) : parseNationalListCsv(text, { source: input.list as string });
  } catch (error) {
    if (!(error instanceof ScreeningListError)) throw error;
    throw AppError.validation(
      [{ field: error.location, message: error.reason }],
      `The list file cannot be read (${error.location}: ${error.reason}); nothing was imported.`,
    );
  }
}

/** The longest list id and reference, and the longest name, the tables keep (screening_list_entries, screenings). */
const ID_MAX = 64;
const NAME_MAX = 500;

/** Entries the database can keep whole: an id, reference or name too long for its column is a 400 naming the entry. */
function assertStorable(parsed: ParsedList): void {
  for (const entry of parsed.entries) {
    const problem =
      entry.id.length > ID_MAX
        ? `its id is longer than ${ID_MAX} characters`
        : (entry.reference?.length ?? 0) > ID_MAX
          ? `its reference is longer than ${ID_MAX} characters`
          : entry.names.some((name) => name.text.length > NAME_MAX)
            ? `a name is longer than ${NAME_MAX} characters`
            : null;
    if (problem) {
      const field = `entry ${entry.id.slice(0, ID_MAX)}`;
      throw AppError.validation(
        [{ field, message: problem }],
        `The list file cannot be imported (${field}: ${problem}); nothing was imported.`,
      );
    }
  }
}

/**
 * Imports a version of a sanctions or asset-freeze list: the version and its entries in one transaction with its
 * `SCREENING_LIST.IMPORTED` audit entry. From its commit it is its list's current version: each ledger's next
 * screening rebuilds its index from it, and the re-screening pass screens every record still open against it (the
 * commit's promise is the database's own state, no message: a record whose newest screening is not against the
 * current versions is due). The same bytes again are found by their SHA-256 and change nothing.
 */
export async function importScreeningList(
  deps: ImportListDeps,
  request: OperatorRequest,
  input: ImportListInput,
): Promise<{ version: ReturnType<typeof toScreeningListVersion>; created: boolean }> {
  const sha256 = createHash('sha256').update(input.bytes).digest('hex');
  const parsed = parse(input);
  if (parsed.entries.length === 0) {
    throw AppError.validation([{ field: '(body)', message: 'holds no entries' }], 'The list file holds no entries; nothing was imported.');
  }
  assertStorable(parsed);
  const actor = actorOf(request.caller);
  const { version, created } = await inTransaction(
    deps,
    async (tx): Promise<{ version: ScreeningListVersion; created: boolean }> => {
      await deps.screeningLists.lockImports(tx);
      const known = await deps.screeningLists.findByHash(tx, sha256);
      if (known) return { version: known, created: false };
      const inserted = await deps.screeningLists.insertVersion(
        tx,
        { source: parsed.version.source, format: input.source, generated: parsed.version.generated, sha256, importedBy: actor.id },
        parsed.entries,
      );
      await writeAudit(tx, {
        actor,
        action: 'SCREENING_LIST.IMPORTED',
        entityType: 'screening_list_version',
        entityId: inserted.id,
        metadata: { source: inserted.source, format: inserted.format, generated: inserted.generated, sha256, entries: inserted.entryCount },
      });
      return { version: inserted, created: true };
    },
    { timeoutMs: IMPORT_TIMEOUT_MS },
  );
  deps.logger.info(created ? 'screening list imported' : 'screening list import replayed', {
    requestId: request.requestId,
    versionId: version.id,
    source: version.source,
    entries: version.entryCount,
    operatorId: request.caller.operatorId,
  });
  const current = (await deps.screeningLists.current()).some((currentVersion) => currentVersion.id === version.id);
  return { version: toScreeningListVersion(version, current), created };
}
