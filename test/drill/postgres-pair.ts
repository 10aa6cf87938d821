/**
 * The drill's PostgreSQL: testkit's private primary with a synchronous standby (a commit is acknowledged only
 * once the standby has flushed it), on free loopback ports. The services are given both hosts in one URL with
 * `target_session_attrs=read-write`, so after the primary dies and the standby is promoted they find it.
 */
import { killPostgres, startPrivatePostgres, startSynchronousStandby, type PrivatePostgres, type SynchronousStandby } from '@kasa/testkit';

export interface PostgresPair {
  primary: PrivatePostgres;
  standby: SynchronousStandby;
  /** The multi-host URL of the drill's database, primary first. */
  databaseUrl: string;
  /** The single-host URL of the server that accepts writes now. */
  writableUrl(): string;
  /** SIGKILLs the primary's postmaster and every process it started (a crash). */
  killPrimary(): Promise<void>;
  /** Promotes the standby; resolves once it accepts writes. */
  promoteStandby(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startPostgresPair(database: string): Promise<PostgresPair> {
  const primary = await startPrivatePostgres();
  let standby: SynchronousStandby;
  try {
    standby = await startSynchronousStandby(primary);
  } catch (error) {
    await primary.destroy();
    throw error;
  }
  let promoted = false;
  return {
    primary,
    standby,
    databaseUrl: standby.failoverUrl(database),
    writableUrl: () => `${promoted ? standby.baseUrl : primary.baseUrl}/${database}`,
    killPrimary: () => killPostgres(primary),
    async promoteStandby() {
      await standby.promote();
      promoted = true;
    },
    async destroy() {
      await standby.destroy();
      await primary.destroy();
    },
  };
}
