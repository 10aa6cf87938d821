import {
  BALANCE_STATEMENT_FORMAT,
  BALANCE_STATEMENT_TIME_ZONE,
  balanceStatementMessage,
  type ListResponse,
  type ResponseOf,
} from '@kasa/contracts';
import { AppError } from '@kasa/http';
import type { PrismaClient } from '@kasa/db';
import type { Clock } from '../shared/clock.js';
import type { CursorCodec } from '../shared/cursor.js';
import { readPage, type ListQuery } from '../shared/partner-list.use-case.js';
import { STATEMENT_SNAPSHOT, type BalanceMovementRepository, type BalanceMovementRow } from './balance-movements.repository.js';
import { toBalanceTransaction, toStatementMovements, type BalanceTransaction } from './balance-movements.views.js';
import type { StatementSigner } from './statement-signer.js';
import { istanbulDayNamed } from '../shared/istanbul-day.js';

export type BalanceStatement = ResponseOf<'BalanceStatement'>;

export interface BalanceStatementDeps {
  db: PrismaClient;
  clock: Clock;
  cursors: CursorCodec;
  balanceMovements: BalanceMovementRepository;
  statementSigner: StatementSigner;
}

/**
 * How long after a day ends its statement is first given: the clocks of the ledger replicas and PostgreSQL may differ
 * by this much, and a posting dated just before midnight may still be committing.
 */
export const STATEMENT_FINAL_AFTER_MS = 5 * 60 * 1000;

/** One newest-first page of the site's balance movements (the partner list's paging and cursor rules). */
export function listBalanceTransactions(
  deps: BalanceStatementDeps,
  siteId: string,
  query: Omit<ListQuery, 'status'>,
): Promise<ListResponse<BalanceTransaction>> {
  const createdFrom = query.createdFrom ? new Date(query.createdFrom) : undefined;
  const createdTo = query.createdTo ? new Date(query.createdTo) : undefined;
  const scope = {
    list: 'balance-transactions',
    siteId,
    filters: { createdFrom: createdFrom?.toISOString() ?? null, createdTo: createdTo?.toISOString() ?? null },
  };
  return readPage(
    deps.cursors,
    scope,
    { cursor: query.cursor, limit: query.limit, createdFrom, createdTo },
    (window) => deps.balanceMovements.page(siteId, window),
    (row: BalanceMovementRow) => toBalanceTransaction(row),
  );
}

/**
 * The signed statement of one finished Istanbul day. It is built from the journal each time it is asked for, never
 * stored: journal entries are never changed (their hash chains prove it), a day is served only once no posting dated
 * in it can still commit, and the encoding and ed25519 are deterministic, so every fetch of a day gives the same bytes.
 */
export async function balanceStatement(deps: BalanceStatementDeps, siteId: string, date: string): Promise<BalanceStatement> {
  const { from, to } = istanbulDayNamed(date);
  const finalAt = new Date(to.getTime() + STATEMENT_FINAL_AFTER_MS);
  if (deps.clock.now() < finalAt || (await deps.balanceMovements.writerOpenSince(finalAt))) {
    throw AppError.conflict(
      'statement_not_final',
      `The statement of ${date} is given from ${finalAt.toISOString()}, once no posting of that day can still be committing.`,
    );
  }
  const day = await deps.db.$transaction((tx) => deps.balanceMovements.day(tx, siteId, from, to), STATEMENT_SNAPSHOT);
  if (!day) throw new AppError('not_found', 'No such site.');
  const { movements, closing } = toStatementMovements(day.opening, day.movements);
  const unsigned: Omit<BalanceStatement, 'signature'> = {
    format: BALANCE_STATEMENT_FORMAT,
    siteId,
    livemode: day.livemode,
    date,
    timeZone: BALANCE_STATEMENT_TIME_ZONE,
    from: from.toISOString(),
    to: to.toISOString(),
    currency: 'TRY',
    opening: { available: figure(day.opening.site_available), reserved: figure(day.opening.site_reserved) },
    closing,
    movements,
  };
  const value = deps.statementSigner.sign(balanceStatementMessage(unsigned));
  return { ...unsigned, signature: { algorithm: 'ed25519', keyId: deps.statementSigner.key.keyId, value } };
}

/** A journal total of a liability as the partner reads it: what the site is owed, in kuruş. */
const figure = (raw: bigint | undefined): string => (-(raw ?? 0n)).toString();
