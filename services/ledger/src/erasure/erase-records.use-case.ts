import type { KasaConfig } from '@kasa/config';
import type { LegalHold, Prisma, PrismaClient } from '@kasa/db';
import type { Clock } from '../shared/clock.js';
import type { ErasureRepository, UserRecord } from './erasure.repository.js';
import { PERSONAL_RECORD_KINDS, retentionEnd, type DestructionCause, type Hold, type PersonalRecordKind } from './retention.js';

export interface ErasureDeps {
  db: PrismaClient;
  erasure: ErasureRepository;
  clock: Clock;
  config: Pick<KasaConfig, 'retentionYears'>;
}

/** A record still held, and by what. */
export type WaitingRecord = { recordType: PersonalRecordKind; recordId: string } & Hold;

export interface ErasurePass {
  anonymised: number;
  /** The records still held (none anonymised yet), top-level records first. */
  waiting: WaitingRecord[];
}

/** Who anonymises and why, written into each destruction-log row. */
export interface Eraser {
  cause: DestructionCause;
  erasureRequestId: string | null;
  actor: string;
}

/**
 * One pass over one end user's records, in the caller's transaction (docs/compliance.md, Retention and erasure): under
 * the user's lock, reads every record of theirs and the holds in force, anonymises each record no hold covers and that is
 * not anonymised yet (one destruction-log row each), and answers what still waits for which hold.
 */
export async function eraseUserRecords(
  tx: Prisma.TransactionClient,
  deps: ErasureDeps,
  user: { siteId: string; externalUserId: string },
  eraser: Eraser,
): Promise<ErasurePass> {
  await deps.erasure.lockUser(tx, user.siteId, user.externalUserId);
  const lastTransaction = await deps.erasure.lastTransactionAt(tx, user.siteId, user.externalUserId);
  const records = await deps.erasure.userRecords(tx, user.siteId, user.externalUserId);
  if (records.length === 0 || lastTransaction === null) return { anonymised: 0, waiting: [] };
  const holds = await deps.erasure.activeHolds(tx, user.siteId, user.externalUserId, topIds(records));
  return anonymiseFree(tx, deps, records, holds, lastTransaction, { ...eraser, siteId: user.siteId });
}

/** The same for a bank line credited to no deposit, and its returns: their retention runs from the line's booking. */
export async function eraseUserlessLine(
  tx: Prisma.TransactionClient,
  deps: ErasureDeps,
  line: { id: string; receivedAt: Date },
  eraser: Eraser,
): Promise<ErasurePass> {
  await deps.erasure.lockLine(tx, line.id);
  const records = await deps.erasure.lineRecords(tx, line.id);
  const holds = await deps.erasure.activeRecordHolds(tx, topIds(records));
  return anonymiseFree(tx, deps, records, holds, line.receivedAt, { ...eraser, siteId: null });
}

const topIds = (records: readonly UserRecord[]) => records.filter((r) => r.parentId === null).map((r) => r.id);

async function anonymiseFree(
  tx: Prisma.TransactionClient,
  deps: ErasureDeps,
  records: readonly UserRecord[],
  holds: readonly LegalHold[],
  retentionFrom: Date,
  eraser: Eraser & { siteId: string | null },
): Promise<ErasurePass> {
  const now = deps.clock.now();
  const userHold = holds.find((h) => h.externalUserId !== null);
  const recordHolds = new Map(holds.filter((h) => h.recordId !== null).map((h) => [`${h.recordType}:${h.recordId}`, h]));
  const free = new Map<PersonalRecordKind, string[]>();
  const waiting: WaitingRecord[] = [];
  for (const record of records) {
    if (record.logged) continue;
    const hold = holdOf(record, userHold, recordHolds, retentionFrom, deps.config.retentionYears, now);
    if (hold) waiting.push({ recordType: record.kind, recordId: record.id, ...hold });
    else free.set(record.kind, [...(free.get(record.kind) ?? []), record.id]);
  }
  let anonymised = 0;
  for (const [kind, ids] of free) {
    anonymised += await deps.erasure.anonymise(tx, kind, ids, { ...eraser, destroyedAt: now });
  }
  return { anonymised, waiting };
}

/**
 * What keeps a record now, if anything: an explicit legal hold on the user, on the record or on the record it follows;
 * else its retention class (the class of the record it follows when it has none), running from `retentionFrom`.
 */
function holdOf(
  record: UserRecord,
  userHold: LegalHold | undefined,
  recordHolds: Map<string, LegalHold>,
  retentionFrom: Date,
  years: KasaConfig['retentionYears'],
  now: Date,
): Hold | null {
  const legal =
    userHold ??
    recordHolds.get(`${record.kind}:${record.id}`) ??
    (record.parentKind ? recordHolds.get(`${record.parentKind}:${record.parentId}`) : undefined);
  if (legal) return { hold: 'legal_hold', legalHoldId: legal.id, holdEndsAt: null };
  const retentionClass =
    PERSONAL_RECORD_KINDS[record.kind].retentionClass ??
    (record.parentKind ? PERSONAL_RECORD_KINDS[record.parentKind].retentionClass : null);
  if (retentionClass === null) return null;
  const ends = retentionEnd(retentionFrom, years[retentionClass]);
  return now < ends ? { hold: 'retention', holdEndsAt: ends.toISOString() } : null;
}
