import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { PrismaClient, Withdrawal, WithdrawalStatus } from '@kasa/db';
import type { NewSiteRecord } from '../site-records/create-record.js';
import {
  SiteScopedRepository,
  type AlongsideInsert,
  type SiteRecordRow,
  type SiteScopedAccess,
} from '../site-records/site-scoped.repository.js';

export interface NewWithdrawal extends NewSiteRecord {
  targetIban: string;
  targetHolderName: string;
}

/** The columns a lookup, a list item and a webhook show. */
export interface WithdrawalRow extends SiteRecordRow<WithdrawalStatus> {
  sentAt: Date | null;
  returnedAt: Date | null;
  returnedReason: string | null;
  returnedReasonCode: string | null;
}

/** Withdrawals' partner-API hot paths as plain statements, like DepositRepository. */
export class WithdrawalRepository extends SiteScopedRepository<WithdrawalRow, WithdrawalStatus> {
  constructor(
    private readonly db: PrismaClient,
    pool: pg.Pool,
    access: SiteScopedAccess = {},
  ) {
    super(
      pool,
      {
        name: 'withdrawals',
        ownColumn:
          'sent_at AS "sentAt", returned_at AS "returnedAt", returned_reason AS "returnedReason", returned_reason_code AS "returnedReasonCode"',
      },
      access,
    );
  }

  /**
   * Inserts the withdrawal PENDING_REVIEW unless the key is taken or the amount is outside the site's limits (then
   * null: see insertRecord).
   */
  insertUnlessKeyExists(input: NewWithdrawal, alongside?: AlongsideInsert): Promise<{ id: string; referenceNo: string } | null> {
    return this.insertRecord(
      { ...input, id: randomUUID(), status: 'PENDING_REVIEW' },
      { target_iban: { value: input.targetIban }, target_holder_name: { value: input.targetHolderName } },
      'id::text AS id, reference_no AS "referenceNo"',
      undefined,
      alongside,
    );
  }

  findByIdempotencyKey(siteId: string, idempotencyKey: string): Promise<Withdrawal | null> {
    return this.db.withdrawal.findUnique({ where: { siteId_idempotencyKey: { siteId, idempotencyKey } } });
  }
}
