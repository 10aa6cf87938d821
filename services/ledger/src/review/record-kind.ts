import type { Router } from 'express';

/**
 * A kind of reviewed record (deposits, withdrawals, bank transfers, returns to senders) as the ledger-wide tables read
 * it: each kind declares it beside its ops routes, and the composition root lists it once (record-kinds.ts), from which
 * the app mounts its routes and the operator-scope guard learns which site owns one of its records. `Deps` is what the
 * kind needs of the ledger's deps; the root's deps satisfy every kind's.
 */
export interface RecordKind<Deps> {
  /** Its folder under services/ledger/src (`withdrawals`). */
  readonly folder: string;
  /** Its ops router (`/ops/v1/<records>`): lists, details and the operators' steps. */
  readonly opsRoutes: (deps: Deps) => Router;
  /**
   * For a scoped operator (operators/site-scope.guard.ts): the path parameter that names one of its records
   * (`withdrawalId`), the 404 detail of a missing one (answered as well for another site's), and the site a record
   * belongs to (null when there is no such record or it is the house's).
   */
  readonly scope: {
    readonly param: string;
    readonly notFound: string;
    readonly siteOf: (deps: Deps, id: string) => Promise<string | null>;
  };
}
