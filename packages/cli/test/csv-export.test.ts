/** `kasa ... --csv` against a real ledger: the list's CSV file streamed to stdout, the same rows as `--json` shows. */
import { EventEmitter } from 'node:events';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { runCli } from '../src/index.js';
import { useRealLedger } from './real-ledger.js';

const real = useRealLedger();
let siteId: string;
beforeAll(async () => {
  await real.scenario.createReceivingAccount();
  siteId = (await real.scenario.createSite()).siteId;
});

/**
 * A stdout that counts its writes and, with `full`, answers every write "full" (false) and drains 200 ms later,
 * counting any write made before it drained: a caller that honours backpressure makes none.
 */
function capture(full = false) {
  const emitter = new EventEmitter();
  const out = { text: '', writes: 0, writesWhileFull: 0 };
  let isFull = false;
  const stdout = {
    write(chunk: string) {
      if (isFull) out.writesWhileFull += 1;
      out.text += chunk;
      out.writes += 1;
      if (!full) return true;
      isFull = true;
      setTimeout(() => {
        isFull = false;
        emitter.emit('drain');
      }, 200);
      return false;
    },
    once: (event: 'drain', listener: () => void) => emitter.once(event, listener),
  };
  return { out, stdout };
}

async function kasa(args: string[], stdout = capture().stdout) {
  let stderr = '';
  const code = await runCli(args, {
    stdout,
    stderr: { write: (chunk: string) => ((stderr += chunk), true) },
    env: { KASA_URL: real.ledger.url, KASA_TOKEN: real.env.config.opsBootstrapToken },
  });
  return { code, stderr };
}

/** The CSV's records (no field here holds a line break or a quote, so a line is a record). */
const recordsOf = (text: string) =>
  text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));

describe('kasa --csv', () => {
  it('streams every matching deposit to stdout, beyond --limit, in the rows and order --json lists them', async () => {
    // More than one CSV page (500 rows), so the file arrives in more than one piece whatever the timing: the ledger
    // reads each page before writing it, and the first with the header.
    for (let i = 0; i < 520; i += 13) {
      await Promise.all(Array.from({ length: 13 }, (_, j) => real.scenario.createDeposit(siteId, String(5000 + (i + j) * 25))));
    }
    await real.scenario.createDeposit(siteId, '1000');
    const { out, stdout } = capture(true);
    const run = await kasa(['intents', 'list', '--site', siteId, '--min-amount', '50', '--limit', '5', '--csv'], stdout);
    expect(run).toEqual({ code: 0, stderr: '' });
    // Written as it arrived: many chunks, and the writer's "full" answers were waited out.
    expect(out.writes).toBeGreaterThan(1);
    expect(out.writesWhileFull).toBe(0);

    const [header = [], ...rows] = recordsOf(out.text);
    expect(header.slice(0, 3)).toEqual(['intent_id', 'reference_no', 'status']);
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);

    const json = capture();
    expect((await kasa(['--json', 'intents', 'list', '--site', siteId, '--min-amount', '50', '--limit', '1000'], json.stdout)).code).toBe(
      0,
    );
    const listed = JSON.parse(json.out.text) as Array<{ intentId: string; amount: string }>;
    expect(listed).toHaveLength(520);
    expect(column('intent_id')).toEqual(listed.map((i) => i.intentId));
    expect(column('amount_kurus')).toEqual(listed.map((i) => i.amount));
    expect(column('amount_try')).toContain('50.00');
  });

  it('prints nothing on stdout for a filter the ledger refuses, and exits 1 with its message', async () => {
    const { out, stdout } = capture();
    const run = await kasa(['withdrawals', 'list', '--status', 'NOPE', '--csv'], stdout);
    expect(run.code).toBe(1);
    expect(out.text).toBe('');
    expect(run.stderr).toContain('The list filters are not valid.');
  });

  it('exports the audit log, events, transfers and returns with their header rows', async () => {
    const cases: Array<[string[], string]> = [
      [['audit', '--site', siteId, '--csv'], 'audit_id,created_at,actor_type'],
      [['events', 'list', '--site', siteId, '--csv'], 'event_id,site_id,type'],
      [['transfers', 'list', '--status', 'UNMATCHED', '--csv'], 'bank_transfer_id,bank_tx_id,status'],
      [['returns', 'list', '--csv'], 'return_id,bank_transfer_id,intent_id'],
    ];
    for (const [args, start] of cases) {
      const { out, stdout } = capture();
      expect(await kasa(args, stdout)).toEqual({ code: 0, stderr: '' });
      expect(out.text.startsWith(start)).toBe(true);
    }
    const audit = capture();
    await kasa(['audit', '--site', siteId, '--csv'], audit.stdout);
    // The site's creation, at least, is in its audit log.
    expect(recordsOf(audit.out.text).length).toBeGreaterThan(1);
  });
});
