/**
 * Checks for a kustomization that runs Kasa's PostgreSQL with CloudNativePG (k8s/overlays/cloudnative-pg): the
 * `Cluster` is validated against the operator's CRD schema (`@kubernetes-models/cloudnative-pg`, by the schema
 * rule of k8s-checks.ts), and here: enough instances, synchronous replication that loses no acknowledged write,
 * and every PostgreSQL user of Kasa connecting through the Cluster's `-rw` Service (its app Secret's `uri`).
 */
import type { ICluster } from '@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Cluster';

/** A Secret a CloudNativePG Cluster makes for its application owner, with the keys Kasa may read and a sample. */
export function clusterAppSecret(cluster: string): { name: string; data: Record<string, string> } {
  return {
    name: `${cluster}-app`,
    data: { uri: `postgresql://kasa:sample-operator-password@${cluster}-rw.kasa:5432/kasa` },
  };
}

/** The services whose DATABASE_URL must lead to the primary (the console and gateway have none). */
const POSTGRES_USERS = ['kasa-ledger', 'kasa-webhook-worker', 'kasa-migrate'];

interface PostgresWorkload {
  where: string;
  name: string;
  /** DATABASE_URL's source in its first container: a Secret key, an inline value, or the envFrom default. */
  databaseUrl: { secret?: string; key?: string } | 'inline' | 'envFrom';
}

/** Problems of the Clusters in a render, and of how the services reach them; [] when there are none. */
export function postgresClusterProblems(clusters: Array<{ where: string; obj: ICluster }>, workloads: PostgresWorkload[]): string[] {
  if (clusters.length === 0) return [];
  const problems: string[] = [];
  if (clusters.length > 1) problems.push(`${clusters.length} CloudNativePG Clusters; Kasa uses one database`);
  for (const { where, obj } of clusters) {
    const spec = obj.spec;
    if ((spec?.instances ?? 1) < 3) problems.push(`${where}: ${spec?.instances ?? 1} instances; a synchronous standby needs a spare, so 3`);
    const sync = spec?.postgresql?.synchronous;
    if (!sync) problems.push(`${where}: no spec.postgresql.synchronous: a failover may lose acknowledged writes`);
    else {
      if ((sync.number ?? 0) < 1) problems.push(`${where}: synchronous.number ${sync.number} waits for no standby`);
      if (sync.dataDurability !== 'required') {
        problems.push(
          `${where}: synchronous.dataDurability is ${sync.dataDurability ?? 'unset'}; only required keeps every acknowledged write`,
        );
      }
      if (sync.number >= (spec?.instances ?? 1))
        problems.push(`${where}: synchronous.number ${sync.number} needs more standbys than there are`);
    }
    const secret = clusterAppSecret(obj.metadata?.name ?? '').name;
    for (const name of POSTGRES_USERS) {
      const found = workloads.filter((workload) => workload.name === name || workload.name.startsWith(`${name}-`));
      if (found.length === 0) problems.push(`${where}: no ${name} to connect`);
      for (const workload of found) {
        const source = workload.databaseUrl;
        if (typeof source === 'string' || source.secret !== secret || source.key !== 'uri') {
          problems.push(`${workload.where}: DATABASE_URL is not the ${secret} Secret's uri (the ${obj.metadata?.name}-rw Service)`);
        }
      }
    }
  }
  return problems;
}
