/**
 * The shapes the ledger's ops API answers with, as far as the console reads them. Amounts are strings of
 * kurus; times are ISO strings.
 */

/** Every ops list: newest first, `nextCursor` null on the last page. */
export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
}

export interface LoginResult {
  token: string;
  tokenId: string;
  expiresAt: string;
  operator: { operatorId: string; email: string; name: string; role: 'ADMIN' | 'REVIEWER' };
}

export interface OpsIntent {
  intentId: string;
  referenceNo: string;
  status: string;
  amount: string;
  requestedAmount: string;
  receivedAmount: string | null;
  currency: string;
  siteId: string;
  externalUserId: string;
  externalUserLabel: string | null;
  approvedAt: string | null;
  rejectedAt: string | null;
  rejectedReason: string | null;
  expiresAt: string;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface OpsBankTransfer {
  bankTransferId: string;
  bankTxId: string;
  status: string;
  amount: string;
  currency: string;
  senderName: string;
  senderIban: string;
  description: string;
  receivedAt: string;
  intentId: string | null;
  unmatchedReason: string | null;
  createdAt: string;
}

export interface OpsWithdrawal {
  withdrawalId: string;
  referenceNo: string;
  status: string;
  amount: string;
  requestedAmount: string;
  currency: string;
  siteId: string;
  externalUserId: string;
  externalUserLabel: string | null;
  targetIban: string;
  targetHolderName: string;
  approvedAt: string | null;
  sentAt: string | null;
  sentBankTxId: string | null;
  rejectedAt: string | null;
  rejectedReason: string | null;
  returnedAt: string | null;
  returnedReason: string | null;
  createdAt: string;
}

export interface SiteBalance {
  siteId: string;
  slug: string;
  name: string;
  currency: string;
  available: string;
  reserved: string;
  receivedTotal: string;
  paidOutTotal: string;
}

/** The ops API's event and attempt shapes are the events surface's own (packages/contracts). */
export type { EventView as OpsEvent, AttemptView as DeliveryAttempt } from '@kasa/contracts';

export interface AuditEntry {
  auditId: string;
  createdAt: string;
  actor: { type: string; id: string; email: string | null };
  action: string;
  entityType: string;
  entityId: string;
  siteId: string | null;
  metadata: unknown;
}

/** A site's settings as `GET /ops/v1/sites` shows them. */
export interface OpsSite {
  siteId: string;
  slug: string;
  name: string;
  webhookUrl: string | null;
  rateLimitPerMinute: number;
  depositTtlSeconds: number;
  minAmount: string;
  maxAmount: string;
  createdAt: string;
}

/** A new site; `webhookSecret` is there (once) when it was created with a webhook URL. */
export interface CreatedSite extends OpsSite {
  webhookSecret: string | null;
}

export interface IssuedApiKey {
  apiKeyId: string;
  siteId: string;
  apiKey: string;
  keyPrefix: string;
  createdAt: string;
}
