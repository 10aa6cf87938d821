import type { LedgerDeps } from './ledger-deps.js';
import type { SiteOwnedRecord } from './operators/site-scope.guard.js';
import type { RecordKind } from './review/record-kind.js';
import { balanceAdjustmentKind } from './balance-adjustments/balance-adjustments-ops.routes.js';
import { bankTransferKind } from './bank-transfers/bank-transfers-ops.routes.js';
import { depositKind } from './deposits/deposits-ops.routes.js';
import { senderReturnKind } from './returns/sender-returns-ops.routes.js';
import { withdrawalKind } from './withdrawals/withdrawals-ops.routes.js';

/**
 * Every kind of reviewed record the ledger serves, each declared beside its ops routes (review/record-kind.ts): the app
 * mounts their ops routers from this list, and the operator-scope guard learns from it which site owns a record. A new
 * kind is its folder and one line here (CONTRIBUTING.md, "A new record kind").
 */
export const RECORD_KINDS: ReadonlyArray<RecordKind<LedgerDeps>> = [
  depositKind,
  withdrawalKind,
  bankTransferKind,
  senderReturnKind,
  balanceAdjustmentKind,
];

/** The record kinds' entries of the operator-scope guard; `deps` is read only when a lookup runs. */
export function recordKindsOwnedBySites(deps: () => LedgerDeps): SiteOwnedRecord[] {
  return RECORD_KINDS.map(({ scope }) => ({ param: scope.param, notFound: scope.notFound, siteOf: (id) => scope.siteOf(deps(), id) }));
}
