import type pg from 'pg';

/** Where a plain read goes: a node-postgres pool, or {@link ReplicaReads}. */
export interface ReadQueryable {
  query<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>>;
}

export interface ReplicaReadsOptions {
  /** After a replica error, how long reads skip the replica and go straight to the primary. Default 5 s. */
  skipForMs?: number;
  /** Told when the replica fails and reads turn to the primary: once per failure period, not once per read. */
  onReplicaError?: (error: Error) => void;
  /** Milliseconds now; a test passes a clock it controls. */
  now?: () => number;
}

const DEFAULT_SKIP_FOR_MS = 5_000;

/**
 * Reads that may lag: from a read replica while it answers, from the primary when it does not. A replica
 * error of any kind (connection refused, connect or query timeout, a failed query) is answered from the
 * primary for that read, and the replica is then skipped for `skipForMs`, so a dead replica costs one failed
 * attempt per period instead of one per request. Without a replica every read goes to the primary.
 *
 * Only reads that may show an older state belong here (the partner API's lists): what Kasa already reported
 * to a partner must be read from the primary.
 */
export class ReplicaReads implements ReadQueryable {
  private skipUntil = 0;
  private readonly skipForMs: number;
  private readonly now: () => number;

  constructor(
    private readonly primary: ReadQueryable,
    private readonly replica: ReadQueryable | null,
    private readonly options: ReplicaReadsOptions = {},
  ) {
    this.skipForMs = options.skipForMs ?? DEFAULT_SKIP_FOR_MS;
    this.now = options.now ?? Date.now;
  }

  /** Whether the next read goes to the replica (there is one, and it has not failed within `skipForMs`). */
  get usingReplica(): boolean {
    return this.replica !== null && this.now() >= this.skipUntil;
  }

  async query<Row extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<Row>> {
    if (!this.replica || !this.usingReplica) return this.primary.query<Row>(text, values);
    try {
      return await this.replica.query<Row>(text, values);
    } catch (error) {
      // Reads in flight when the replica died fail together; the first one starts the skip period and reports.
      if (this.usingReplica) {
        this.skipUntil = this.now() + this.skipForMs;
        this.options.onReplicaError?.(error instanceof Error ? error : new Error(String(error)));
      }
      return this.primary.query<Row>(text, values);
    }
  }
}
