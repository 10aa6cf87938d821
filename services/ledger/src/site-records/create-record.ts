import { AppError } from '@kasa/http';
import type { SiteRepository } from '../sites/site.repository.js';
import { generateReferenceNo, type ReferenceKind } from './reference-no.js';
import type { RequestContext } from '../shared/request-context.js';
import { isUniqueViolation } from '../shared/unique-violation.js';

/** A create's answer: `replayed` when the idempotency key had already produced this record. */
export interface Idempotent<T> {
  replayed: boolean;
  body: T;
}

/**
 * A partner create as its route hands it over: the site from the path, the gateway's idempotency envelope,
 * the checked body, and the request it came in (its id, the gateway's X-Request-Id, goes on the log line).
 */
export interface CreateCommand<Body> extends RequestContext {
  siteId: string;
  idempotencyKey: string;
  fingerprint: string;
  /** The gateway already answered this key with this body: replay the record, never create one. */
  answeredBefore?: boolean;
  body: Body;
}

/** The fields of a create request every kind of partner record has. */
interface SiteRecordRequest {
  amount: string;
  currency?: string;
  externalUserId: string;
  externalUserLabel?: string;
}

/** The columns every new partner record (deposit intent or withdrawal) takes from its create. */
export interface NewSiteRecord {
  siteId: string;
  referenceNo: string;
  amount: bigint;
  currency: string;
  externalUserId: string;
  externalUserLabel: string | null;
  idempotencyKey: string;
  idempotencyFingerprint: string;
}

/**
 * Why the site refused a create whose insert found no row and whose key has no record, read fresh from the site's
 * row (the insert read the same row: a cached copy could be older): 401 when the site is gone, 422 for an amount
 * outside its limits. Returns when neither explains it.
 */
export async function assertSiteTakes(sites: SiteRepository, siteId: string, amount: bigint): Promise<void> {
  sites.forget(siteId);
  const site = await sites.findById(siteId);
  if (!site) throw new AppError('unauthorized', 'The API key does not belong to an active site.');
  assertAmountWithinSiteBounds(site, amount);
}

/** The largest value of PostgreSQL's bigint: an amount above it is no site's, and could not even be compared in SQL. */
const MAX_BIGINT = 2n ** 63n - 1n;

/**
 * The requested amount. One too large for a bigint is refused here with the site's limits (read fresh); every other
 * amount is checked against the limits inside the insert ({@link assertSiteTakes} says why one was refused).
 */
export async function requestedAmount(sites: SiteRepository, command: CreateCommand<SiteRecordRequest>): Promise<bigint> {
  const amount = BigInt(command.body.amount);
  if (amount > MAX_BIGINT) await assertSiteTakes(sites, command.siteId, amount);
  return amount;
}

/** A new record's shared columns, with a fresh reference number: build them once per insert attempt. */
export function newSiteRecord(kind: ReferenceKind, amount: bigint, command: CreateCommand<SiteRecordRequest>): NewSiteRecord {
  return {
    siteId: command.siteId,
    referenceNo: generateReferenceNo(kind),
    amount,
    currency: command.body.currency ?? 'TRY',
    externalUserId: command.body.externalUserId,
    externalUserLabel: command.body.externalUserLabel ?? null,
    idempotencyKey: command.idempotencyKey,
    idempotencyFingerprint: command.fingerprint,
  };
}

function assertAmountWithinSiteBounds(site: { minAmount: bigint; maxAmount: bigint }, amount: bigint): void {
  if (amount < site.minAmount || amount > site.maxAmount) {
    throw AppError.validation(
      [{ field: 'amount', message: `must be between ${site.minAmount} and ${site.maxAmount} (minor units)` }],
      'The amount is outside the limits of this site.',
    );
  }
}

/** One create attempt's outcome: the new row, or null when the idempotency key already has one. */
export interface CreateOnce<Inserted, Existing extends { idempotencyFingerprint: string }, Body> {
  /**
   * Inserts unless the key exists or the site refuses the record (its limits, read in the same statement); a fresh
   * reference number each call (a collision is retried).
   */
  insert(): Promise<Inserted | null>;
  /** The row this idempotency key already created. */
  findExisting(): Promise<Existing | null>;
  /**
   * After an insert that found no row and a key without a record: throws the site's refusal ({@link assertSiteTakes}),
   * or says whether something the insert was given from a cache has changed since (true: insert again).
   */
  recheck(): Promise<boolean>;
  fingerprint: string;
  /** The gateway answered this key before ({@link CreateCommand.answeredBefore}): only a replay may answer. */
  answeredBefore?: boolean;
  toBody(row: Inserted | Existing): Body;
}

/**
 * The create-with-idempotency loop every partner create shares, the ledger alone deciding: insert unless the
 * (site, key) is taken; if it is, the same body replays the stored record, another body is
 * `idempotency_key_reused`, and a key whose first create has not committed yet is `idempotency_key_in_use`
 * (409: retry shortly). The common path is the one insert statement; the read only follows a taken key. A
 * reference number that collides with an existing one (1 in billions) is drawn again, a few times at most.
 */
export async function createOnce<Inserted, Existing extends { idempotencyFingerprint: string }, Body>(
  create: CreateOnce<Inserted, Existing, Body>,
): Promise<Idempotent<Body>> {
  if (create.answeredBefore) {
    // The partner holds an answer for this key. Without the record it named (a failover to a replica that had
    // not received it), creating now would give the same key a second id: refuse instead, and say why.
    const existing = await create.findExisting();
    if (!existing) {
      throw new AppError(
        'conflict',
        'This Idempotency-Key was answered before, but its record is no longer in the ledger (lost in a database failover); nothing was created. Create it again with a new Idempotency-Key if it is still wanted.',
        undefined,
        undefined,
        'idempotency_record_lost',
      );
    }
    return replayOf(create, existing);
  }
  for (let attempt = 0; attempt < 5; attempt += 1) {
    let inserted: Inserted | null;
    try {
      inserted = await create.insert();
    } catch (error) {
      if (isUniqueViolation(error, 'reference_no')) continue;
      throw error;
    }
    if (inserted) return { replayed: false, body: create.toBody(inserted) };
    const existing = await create.findExisting();
    if (existing) return replayOf(create, existing);
    if (await create.recheck()) continue;
    // Nothing refuses it: the key's lock was held (insertRecord), so its first create is still in flight.
    throw new AppError('idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress; retry shortly.');
  }
  throw new AppError('service_unavailable', 'Could not allocate a reference number; retry with the same Idempotency-Key.');
}

/** The record a key already created: replayed for the same body, `idempotency_key_reused` for another. */
function replayOf<Inserted, Existing extends { idempotencyFingerprint: string }, Body>(
  create: CreateOnce<Inserted, Existing, Body>,
  existing: Existing,
): Idempotent<Body> {
  if (existing.idempotencyFingerprint !== create.fingerprint) {
    throw new AppError('idempotency_key_reused', 'This Idempotency-Key was already used with a different request body.');
  }
  return { replayed: true, body: create.toBody(existing) };
}
