import type { Router } from 'express';
import type pg from 'pg';
import type { OpsRecordDesk } from '@kasa/contracts';
import type { PrismaClient, ReadQueryable } from '@kasa/db';
import type { DeskDb, LiveRecords, QueueHead } from '../desk/desk.repository.js';

/** What the composition root builds a kind's repositories from. */
export interface RepositorySources {
  readonly db: PrismaClient;
  /** The primary's pool, for the partner API's hot statements. */
  readonly pool: pg.Pool;
  /**
   * How the partner API's site-scoped repositories read (site-records/site-scoped.repository.ts): lists from the
   * replica with the primary behind it, and named statements only with DATABASE_POOL_MODE=session.
   */
  readonly siteScoped: { readonly lists: ReadQueryable; readonly namedStatements: boolean };
}

/**
 * A kind of reviewed record (deposits, withdrawals, bank transfers, returns to senders, balance adjustments) as the
 * ledger-wide tables read it. Each kind declares it beside its ops routes, as `export const <name>Kind = { ... }
 * satisfies RecordKind<...>` in its `<folder>/<name>-ops.routes.ts`; scripts/setup.mjs lists every such declaration
 * (record-kinds.ts), from which the app mounts its routes, the composition root builds its repositories and the
 * operator-scope guard learns which site owns one of its records. `satisfies`, not a type annotation, keeps the types
 * of the repositories it builds, which the ledger's deps are typed by. `Deps` is what the kind needs of the ledger's
 * deps; the root's deps satisfy every kind's.
 */
export interface RecordKind<Deps> {
  /** Its folder under services/ledger/src (`withdrawals`). */
  readonly folder: string;
  /** Its ops router (`/ops/v1/<records>`): lists, details and the operators' steps. */
  readonly opsRoutes: (deps: Deps) => Router;
  /**
   * The repositories its folder alone uses, by the name its use cases read them under (`deps.balanceAdjustments`),
   * built once by the composition root (ledger-deps.ts), whose deps' type includes them. A repository other folders
   * read too (a deposit's review, a bank transfer) is built in ledger-deps.ts instead, beside the others the ledger
   * shares.
   */
  readonly repositories: (sources: RepositorySources) => object;
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
  /**
   * When its records wait for an operator on the desk: the queue its contract module declares (`<NAME>_OPS.desk`, by
   * which the dashboard's answer names it) and its count, the records in the declared status among `live` (the desk's
   * rule: live sites only, the operator's sites only) with the one that has waited longest, read on `db`, the
   * dashboard's transaction. desk/desk-ops.routes.ts puts every such queue in the answer.
   */
  readonly desk?: {
    readonly declared: OpsRecordDesk;
    readonly head: (deps: Deps, live: LiveRecords, db: DeskDb) => Promise<QueueHead>;
  };
}
