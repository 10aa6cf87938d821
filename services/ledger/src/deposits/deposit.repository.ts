import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { Deposit, DepositStatus, PrismaClient } from '@kasa/db';
import type { NewSiteRecord } from '../site-records/create-record.js';
import { SiteScopedRepository, type SiteRecordRow, type SiteScopedAccess } from '../site-records/site-scoped.repository.js';

export interface NewDeposit extends NewSiteRecord {
  id?: string;
  receivingAccountId: string;
  depositTokenHash: string;
  /** "Now" by the ledger's clock: the intent expires the site's deposit TTL after it, as the site's row has it then. */
  now: Date;
  /** The hosted page's link back to the partner's site, when the partner gave one. */
  returnUrl: string | null;
}

export interface InsertedDeposit {
  id: string;
  referenceNo: string;
  amount: bigint;
  currency: string;
  expiresAt: Date;
}

/** The columns a lookup, a list item and a webhook show. */
export interface DepositRow extends SiteRecordRow<DepositStatus> {
  approvedAt: Date | null;
}

/** The partner API's hot paths (create, lookup, list) as single plain statements on the shared pool. */
export class DepositRepository extends SiteScopedRepository<DepositRow, DepositStatus> {
  constructor(
    private readonly db: PrismaClient,
    pool: pg.Pool,
    access: SiteScopedAccess = {},
  ) {
    super(pool, { name: 'deposit_intents', ownColumn: 'approved_at AS "approvedAt"' }, access);
  }

  /**
   * Inserts the intent RESERVED unless the key is taken, the amount is outside the site's limits or the receiving
   * account is no longer active; returns null then (see insertRecord).
   */
  async insertUnlessKeyExists(input: NewDeposit): Promise<InsertedDeposit | null> {
    const row = await this.insertRecord<Omit<InsertedDeposit, 'amount'> & { amount: string }>(
      { ...input, id: input.id ?? randomUUID(), status: 'RESERVED' },
      {
        receiving_account_id: { value: input.receivingAccountId },
        deposit_token_hash: { value: input.depositTokenHash },
        expires_at: { value: input.now, expression: (now) => `${now}::timestamptz + make_interval(secs => site.deposit_ttl_seconds)` },
        return_url: { value: input.returnUrl },
      },
      'id::text AS id, reference_no AS "referenceNo", amount, currency, expires_at AS "expiresAt"',
      // The account list is cached (ReceivingAccountRepository.next): one deactivated since is refused here.
      (param) =>
        `EXISTS (SELECT 1 FROM receiving_bank_accounts account WHERE account.id = ${param('receiving_account_id')} AND account.active)`,
    );
    return row ? { ...row, amount: BigInt(row.amount) } : null;
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<Deposit | null> {
    return this.db.deposit.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }
}
