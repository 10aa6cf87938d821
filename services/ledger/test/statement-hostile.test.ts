/**
 * Hostile statement files and connector bodies over the real ops API: XML nested absurdly deep, amounts past what
 * the database holds, NUL and other control characters, dates that do not exist. Each answers 4xx naming the place,
 * and nothing is imported. And a ~10 MB camt.053 of 20,000+ entries imported while /healthz is polled from another
 * thread: /healthz keeps answering, no poll waiting 2 s (the 200 ms target is the statements benchmark's).
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from '@jest/globals';
import { makeTrIban } from '@kasa/testkit';
import { useHarness } from '@kasa/testkit/jest';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness);

const sample = (name: string) => readFileSync(new URL(`../../../packages/statements/test/samples/${name}`, import.meta.url), 'utf8');

async function newAccount(): Promise<{ id: string; iban: string }> {
  const iban = makeTrIban(Math.floor(Math.random() * 1e9));
  const created = await setup.h.ops('POST', '/receiving-accounts', { bankName: 'Ziraat Bankası', holderName: 'Kasa A.Ş.', iban });
  expect(created.status).toBe(201);
  return { id: created.body.id as string, iban };
}

/** The CSV sample's first statement, on `iban`. */
const csvFor = (iban: string) =>
  sample('statement.csv')
    .split('\n')
    .filter((row) => !row.includes('ZRT-20250314-B'))
    .join('\n')
    .replaceAll('TR18 0006 2001 1900 0006 6723 15', iban);

async function importFile(accountId: string, body: string | Buffer, contentType: string) {
  const response = await fetch(`${setup.h.ledger.url}/ops/v1/receiving-accounts/${accountId}/statements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${setup.h.env.config.opsBootstrapToken}`, 'content-type': contentType },
    body,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

/** Nothing of the account's was written: no transfer, no debit line, no statement, no audit entry. */
async function expectNothingImported(accountId: string): Promise<void> {
  const { db } = setup.h.ledger.deps;
  expect(await db.bankTransfer.count({ where: { receivingAccountId: accountId } })).toBe(0);
  expect(await db.bankStatement.count({ where: { receivingAccountId: accountId } })).toBe(0);
  expect(await db.bankStatementDebit.count({ where: { receivingAccountId: accountId } })).toBe(0);
  expect(
    await db.auditLog.count({
      where: { action: { in: ['BANK_STATEMENT.IMPORTED', 'BANK_LINES.RECORDED'] }, entityId: accountId },
    }),
  ).toBe(0);
}

describe('a hostile statement file', () => {
  it('refuses XML nested 20,000 deep with 400 naming the line, not 500', async () => {
    const account = await newAccount();
    const deep =
      '<?xml version="1.0"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n' +
      '<a>'.repeat(20_000) +
      '</a>'.repeat(20_000) +
      '</Document>\n';
    const imported = await importFile(account.id, deep, 'application/xml');
    expect(imported.status).toBe(400);
    expect(imported.body.errors).toEqual([{ field: 'line 3', message: expect.stringMatching(/nested deeper than 64 elements/) }]);
    await expectNothingImported(account.id);
  });

  it('refuses a CSV amount past int8 (999999999999999999.99) with 400 naming the line, not 500', async () => {
    const account = await newAccount();
    // The credit and the debit both of it, and the closing balance moved to match, so the statement still adds up.
    const file = csvFor(account.iban)
      .replace(',1500.00,', ',999999999999999999.99,')
      .replace(',5000.00,', ',999999999999999999.99,')
      .replace(',122250.00,', ',125750.00,');
    const imported = await importFile(account.id, file, 'text/csv');
    expect(imported.status).toBe(400);
    expect(imported.body.errors).toEqual([{ field: 'line 3', message: expect.stringMatching(/more than 15 digits/) }]);
    await expectNothingImported(account.id);
  });

  it('refuses a NUL byte in a CSV field with 400 naming the line, not 500', async () => {
    const account = await newAccount();
    const file = csvFor(account.iban).replace('AYŞE YILMAZ', 'AYŞE\u0000YILMAZ');
    const imported = await importFile(account.id, file, 'text/csv');
    expect(imported.status).toBe(400);
    expect(imported.body.errors).toEqual([{ field: 'line 3', message: expect.stringMatching(/control character U\+0000/) }]);
    await expectNothingImported(account.id);
  });

  it('refuses a control character an XML character reference spells (&#x7F;, &#x1B;) with 400 naming the line', async () => {
    const account = await newAccount();
    // The XML reader would hand DEL on into the sender's name, and drop ESC without a word.
    for (const [reference, named] of [
      ['&#x7F;', 'U+007F'],
      ['&#27;', 'U+001B'],
    ]) {
      const file = sample('camt053-v08.xml')
        .replaceAll('TR180006200119000006672315', account.iban)
        .replace('ÇAĞLA GÜNEŞ', `ÇAĞLA${reference}GÜNEŞ`);
      const imported = await importFile(account.id, file, 'application/xml');
      expect(imported.status).toBe(400);
      expect(imported.body.errors).toEqual([{ field: 'line 45', message: expect.stringContaining(`holds control character ${named}`) }]);
    }
    await expectNothingImported(account.id);
  });

  it('refuses a booking date of 30 February, of year 0 or of year 100 with 400 naming the line', async () => {
    const account = await newAccount();
    for (const date of ['2025-02-30T09:12:00+03:00', '0000-03-14T09:12:00+03:00', '0100-03-14T09:12:00+03:00']) {
      const file = csvFor(account.iban).replace('2025-03-14T09:12:00+03:00', date);
      const imported = await importFile(account.id, file, 'text/csv');
      expect(imported.status).toBe(400);
      expect(imported.body.errors).toEqual([{ field: 'line 3', message: expect.stringContaining(date) }]);
    }
    await expectNothingImported(account.id);
  });
});

describe('a hostile connector body', () => {
  const line = (overrides: Record<string, unknown>) => ({
    bankTxId: `HX${Date.now()}${Math.floor(Math.random() * 1e6)}`,
    direction: 'credit',
    amount: '150000',
    receivedAt: new Date().toISOString(),
    senderName: 'AYŞE YILMAZ',
    senderIban: '',
    description: 'HAVALE',
    ...overrides,
  });

  it('refuses an amount of more than 15 digits of kuruş with 400 naming the line', async () => {
    const account = await newAccount();
    const answer = await setup.h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [line({}), line({ amount: '1000000000000000' })],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([{ field: 'lines.1.amount', message: expect.stringMatching(/at most 15 digits/) }]);
    await expectNothingImported(account.id);
  });

  it('refuses a control character in a sender name or description with 400 naming the field', async () => {
    const account = await newAccount();
    const answer = await setup.h.ops('POST', `/receiving-accounts/${account.id}/lines`, {
      lines: [line({ senderName: 'AYŞE\u001bYILMAZ' }), line({ description: 'HAVALE\u0007' })],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['lines.0.senderName', 'lines.1.description']);
    await expectNothingImported(account.id);
  });
});

/** A camt.053.001.02 of `entries` booked entries on `iban` (credits and some debits), ~500 bytes an entry. */
function bigCamt053(iban: string, entries: number): string {
  const out: string[] = [];
  let credits = 0n;
  let debits = 0n;
  for (let i = 1; i <= entries; i += 1) {
    const amount = 10_000n + BigInt((i * 7919) % 90_000);
    const debit = i % 10 === 0;
    if (debit) debits += amount;
    else credits += amount;
    const lira = `${amount / 100n}.${String(amount % 100n).padStart(2, '0')}`;
    const ref = `BIG${String(i).padStart(8, '0')}`;
    const party = debit
      ? `<Cdtr><Nm>ÖZTÜRK TEKSTİL A.Ş. ${i}</Nm></Cdtr><CdtrAcct><Id><IBAN>TR800004600123888000098765</IBAN></Id></CdtrAcct>`
      : `<Dbtr><Nm>VEYSEL BARANSU ${i}</Nm></Dbtr><DbtrAcct><Id><IBAN>TR260001000201234567890123</IBAN></Id></DbtrAcct>`;
    out.push(
      `<Ntry><NtryRef>${i}</NtryRef><Amt Ccy="TRY">${lira}</Amt><CdtDbtInd>${debit ? 'DBIT' : 'CRDT'}</CdtDbtInd><Sts>BOOK</Sts>` +
        `<BookgDt><Dt>2025-03-14</Dt></BookgDt><AcctSvcrRef>${ref}</AcctSvcrRef>\n` +
        `  <NtryDtls><TxDtls><Refs><AcctSvcrRef>${ref}</AcctSvcrRef><EndToEndId>NOTPROVIDED</EndToEndId></Refs>\n` +
        `  <RltdPties>${party}</RltdPties><RmtInf><Ustrd>Kira ödemesi ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>\n`,
    );
  }
  const lira = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;
  const balance = (code: string, minor: bigint) =>
    `      <Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="TRY">${lira(minor)}</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2025-03-14</Dt></Dt></Bal>\n`;
  const opening = 100_000_000n;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02">\n  <BkToCstmrStmt>\n' +
    '    <GrpHdr><MsgId>BIG-1</MsgId><CreDtTm>2025-03-14T23:05:12+03:00</CreDtTm></GrpHdr>\n    <Stmt>\n' +
    `      <Id>BIG-${iban}</Id>\n      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>TRY</Ccy></Acct>\n` +
    balance('OPBD', opening) +
    balance('CLBD', opening + credits - debits) +
    out.join('') +
    '    </Stmt>\n  </BkToCstmrStmt>\n</Document>\n'
  );
}

/**
 * Polls `url` every `everyMs` from a thread of its own until told to stop, and answers each poll's latency. The
 * poller must not share the ledger's event loop: a loop the import blocks would delay the poller's own timer too, and
 * the stall would go unmeasured.
 */
function pollFromAnotherThread(url: string, everyMs: number): { stop(): Promise<number[]> } {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const latencies = [];
     let stopping = false;
     parentPort.on('message', () => { stopping = true; });
     (async () => {
       while (!stopping) {
         const due = performance.now() + workerData.everyMs;
         const started = performance.now();
         const response = await fetch(workerData.url);
         await response.text();
         latencies.push(response.ok ? performance.now() - started : Infinity);
         await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
       }
       parentPort.postMessage(latencies);
     })().catch((error) => parentPort.postMessage(String(error)));`,
    { eval: true, workerData: { url, everyMs } },
  );
  return {
    stop: () =>
      new Promise((resolve, reject) => {
        worker.once('message', (answer: number[] | string) => {
          void worker.terminate();
          if (typeof answer === 'string') reject(new Error(answer));
          else resolve(answer);
        });
        worker.postMessage('stop');
      }),
  };
}

describe('a large statement', () => {
  it('imports a ~10 MB camt.053 of 20,000 entries while /healthz keeps answering, none waiting 2 s', async () => {
    const account = await newAccount();
    const file = bigCamt053(account.iban, 20_000);
    // Just under 10 MiB (the route takes 16 MiB).
    const bytes = Buffer.byteLength(file);
    expect(bytes).toBeGreaterThan(9 * 1024 * 1024);
    expect(bytes).toBeLessThan(10 * 1024 * 1024);

    // What the machine gives a poll with no import running, printed beside the result: a loaded machine shows here.
    const quiet = pollFromAnotherThread(`${setup.h.ledger.url}/healthz`, 50);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const baseline = await quiet.stop();

    const poller = pollFromAnotherThread(`${setup.h.ledger.url}/healthz`, 50);
    const started = performance.now();
    const imported = await importFile(account.id, file, 'application/xml');
    const seconds = (performance.now() - started) / 1000;
    const latencies = await poller.stop();

    expect(imported.status).toBe(201);
    expect(imported.body).toMatchObject({ lines: 20_000, created: 20_000 });
    const sorted = [...latencies].sort((a, b) => a - b);
    const max = sorted.at(-1) ?? 0;
    const at = (share: number) => (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0).toFixed(0);
    process.stdout.write(
      `[statement-hostile] 20,000-entry camt.053 (${(bytes / 1024 / 1024).toFixed(1)} MiB) imported in ${seconds.toFixed(1)} s; ` +
        `${latencies.length} /healthz polls: median ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${max.toFixed(0)} ms ` +
        `(slowest: ${sorted
          .slice(-5)
          .map((ms) => ms.toFixed(0))
          .join(', ')}); with no import, max ${Math.max(...baseline).toFixed(0)} ms\n`,
    );
    expect(latencies.length).toBeGreaterThan(seconds * 5);
    // The speed target (every answer within 200 ms, p99 during a 100,000-line import) is the statements benchmark's
    // (npm run bench -- statements, docs/benchmarks.md): inside the suite another test's browser or services share the
    // 2 cores and a poll can wait for the CPU whatever the ledger does (fresh-clone runs saw p99 64, 225, 248 and 466 ms).
    // What this test holds is that the file is never parsed on the event loop, as it once was (it stalled /healthz for
    // 12 s): /healthz keeps answering throughout, and no answer waits 2 s.
    expect(max).toBeLessThan(2_000);
  });
});
