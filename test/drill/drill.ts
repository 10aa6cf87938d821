/**
 * `npm run drill` (scripts/drill.mjs runs this on Node 24): the failover drill with its full budget, or the test
 * suite's with `--short`. Prints the table and writes it to docs/scaling.md between the failover-drill markers;
 * exits 1 when any fault fails its targets. `--no-write` leaves the docs alone.
 */
import { fileURLToPath } from 'node:url';
import { writeMarkedSection } from '../../bench/lib/doc-section.js';
import { gitState, runHeader } from '../../bench/lib/machine.js';
import { FULL_BUDGET, SHORT_BUDGET } from './budgets.js';
import { cleanupDrill, runDrill, type DrillResult } from './run-drill.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function summary(result: DrillResult, budget: typeof FULL_BUDGET, startedAt: string): string {
  const header = runHeader(startedAt, gitState(ROOT));
  const { events } = result.verification;
  const settle = Object.values(budget.settleMs).map((ms) => ms / 1000);
  return [
    `Last run ${header.startedAt} on ${header.commit}${header.dirtyFiles > 0 ? ` (+${header.dirtyFiles} changed files)` : ''}, ` +
      `${header.cpus} × ${header.cpuModel}, Node ${header.node}: ${budget.rps} requests a second, ` +
      `${budget.baselineMs / 1000} s before the first fault and ${settle.join(' / ')} s from each fault to the next; ` +
      `Redis \`cluster-node-timeout\` ${budget.redisNodeTimeoutMs} ms, the standby promoted ${budget.promoteAfterMs / 1000} s after the primary died.`,
    '',
    result.table,
    '',
    `${result.requests} requests (${result.achievedRps.toFixed(0)} a second; ${result.skipped} not started because ${result.maxInFlight} were open), ${result.acknowledged} acknowledged writes, ` +
      `${result.baselineFailures} failed before the first fault. Webhooks: ${events.recorded} events recorded, ${events.delivered} delivered, ` +
      `${events.redelivered} delivered again (at least once), ${events.unknown} delivered that the ledger has no record of. ` +
      `The whole drill took ${(result.durationMs / 1000).toFixed(0)} s.`,
  ].join('\n');
}

async function main(): Promise<void> {
  const short = process.argv.includes('--short');
  const budget = short ? SHORT_BUDGET : FULL_BUDGET;
  const startedAt = new Date().toISOString();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void cleanupDrill().finally(() => process.exit(130));
    });
  }
  const result = await runDrill({ ...budget, log: (line) => console.log(`[drill] ${line}`) });
  const text = summary(result, budget, startedAt);
  console.log(`\n${text}\n`);
  for (const finding of [...result.verification.lost, ...result.verification.duplicates].slice(0, 20))
    console.log(`[drill] ${finding.phase}: ${finding.what}`);
  if (!process.argv.includes('--no-write')) await writeMarkedSection(`${ROOT}docs/scaling.md`, 'failover-drill', 'Failover drill', text);
  process.exit(result.rows.every((row) => row.pass) ? 0 : 1);
}

main().catch(async (error: unknown) => {
  console.error(error);
  await cleanupDrill();
  process.exit(1);
});
