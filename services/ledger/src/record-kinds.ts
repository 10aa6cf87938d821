import { OPS_RECORD_DESK_QUEUES } from '@kasa/contracts';
import type { DeclaredQueue } from './desk/desk-ops.routes.js';
import type { LedgerDeps } from './ledger-deps.js';
import type { SiteOwnedRecord } from './operators/site-scope.guard.js';
import type { RecordKind, RepositorySources } from './review/record-kind.js';
import { GENERATED_RECORD_KINDS } from './generated/record-kinds.js';

/**
 * Every kind of reviewed record the ledger serves, each declared beside its ops routes (review/record-kind.ts). The list
 * is written by scripts/setup.mjs into generated/record-kinds.ts (gitignored; scripts/generate-sources.mjs): every
 * `export const <name>Kind = { ... } satisfies RecordKind<...>` of a `services/ledger/src/<folder>/<name>-ops.routes.ts`,
 * by folder in alphabetical order. The app mounts their ops routers from it, the composition root builds their
 * repositories, and the operator-scope guard learns which site owns a record. A new kind is its folder alone
 * (CONTRIBUTING.md, "A new record kind"); test/record-kinds.test.ts fails while a file declares a kind the list lacks.
 */
export const RECORD_KINDS: ReadonlyArray<RecordKind<LedgerDeps>> = GENERATED_RECORD_KINDS;

type UnionToIntersection<U> = (U extends unknown ? (part: U) => void : never) extends (part: infer I) => void ? I : never;
type Built = ReturnType<(typeof GENERATED_RECORD_KINDS)[number]['repositories']>;

/** The repositories every kind builds, as one object type: the part of LedgerDeps the kinds' folders declare. */
export type KindRepositories = UnionToIntersection<Built> extends infer All ? { [K in keyof All]: All[K] } : never;

/** Every kind's repositories, built once for the composition root. */
export function kindRepositories(sources: RepositorySources): KindRepositories {
  const built: Record<string, unknown> = {};
  for (const kind of RECORD_KINDS) {
    for (const [name, repository] of Object.entries(kind.repositories(sources))) {
      // Two kinds building one name would leave one kind's use cases reading the other's repository.
      if (name in built) throw new Error(`deps.${name} is built by two record kinds (the second is ${kind.folder})`);
      built[name] = repository;
    }
  }
  // One cast: the entries are the kinds' own, and KindRepositories is their merge, each name built once (above).
  return built as KindRepositories;
}

/** The record kinds' entries of the operator-scope guard; `deps` is read only when a lookup runs. */
export function recordKindsOwnedBySites(deps: () => LedgerDeps): SiteOwnedRecord[] {
  return RECORD_KINDS.map(({ scope }) => ({ param: scope.param, notFound: scope.notFound, siteOf: (id) => scope.siteOf(deps(), id) }));
}

/**
 * The queues the kinds' contract modules declare (OPS_RECORD_DESK_QUEUES), in their order, each counted by the ledger
 * descriptor that names it (its `desk`), for the desk's routes to put in the dashboard's answer. A declared queue no
 * descriptor counts, or two count, stops the ledger at start: the dashboard would answer without a property its
 * contract requires, or with one kind's count for another's.
 */
export function deskQueuesOf(deps: LedgerDeps): DeclaredQueue[] {
  return OPS_RECORD_DESK_QUEUES.map(({ queue }) => {
    const counting = RECORD_KINDS.filter((kind) => kind.desk?.declared.queue === queue);
    const desk = counting[0]?.desk;
    if (!desk || counting.length > 1)
      throw new Error(`The desk's ${queue} is counted by ${counting.length} record kinds' descriptors (their \`desk\`), not one.`);
    return { queue, head: (live, db) => desk.head(deps, live, db) };
  });
}
