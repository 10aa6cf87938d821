/**
 * The ops lists as CSV files (`Accept: text/csv`) on a real ledger: the same filters as the JSON list, every
 * page of it, one row per JSON item, amounts in kuruş and lira, RFC 4180 quoting, and cells a spreadsheet
 * would run as formulas defused.
 */
import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { useHarness } from '@kasa/testkit/jest';
import { csvCell, liraDecimal } from '../src/shared/csv.js';
import { CSV_PAGE_ROWS, csvHeaderOf } from '../src/shared/ops-list-csv.js';
import { startLedgerHarness } from './harness.js';

const setup = useHarness(startLedgerHarness, async (h) => ({ site: await h.createSite(), other: await h.createSite() }));

interface CsvAnswer {
  status: number;
  type: string | null;
  disposition: string | null;
  text: string;
  /** The records after the header, each by its header's names. */
  rows: Array<Record<string, string>>;
  header: string[];
}

/** GETs an ops list with `Accept: text/csv` and reads the file as a spreadsheet would (csv-parse, RFC 4180). */
async function csvOf(path: string, accept = 'text/csv', token = setup.h.env.config.opsBootstrapToken): Promise<CsvAnswer> {
  const { h } = setup;
  const res = await fetch(`${h.ledger.url}/ops/v1${path}`, { headers: { accept, authorization: `Bearer ${token}` } });
  const text = await res.text();
  const records = res.ok && res.headers.get('content-type')?.startsWith('text/csv') ? (parse(text) as string[][]) : [];
  const [header = [], ...body] = records;
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    disposition: res.headers.get('content-disposition'),
    text,
    header,
    rows: body.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? '']))),
  };
}

/** Every item of a JSON ops list, following `nextCursor` 100 at a time. */
async function jsonList(path: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const res = await setup.h.ops('GET', `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    items.push(...(res.body.data as Array<Record<string, unknown>>));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return items;
}

const inBatches = async <T>(count: number, make: (i: number) => Promise<T>, size = 8): Promise<T[]> => {
  const made: T[] = [];
  for (let start = 0; start < count; start += size) {
    made.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => make(start + i)))));
  }
  return made;
};

/**
 * The cell and amount as the export wrote them before it was made faster (a regular expression for a formula's start,
 * every amount through bigint), kept here as the reference the file must still match byte for byte.
 */
function referenceCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  const safe = typeof value === 'string' && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function referenceLira(kurus: string | null | undefined): string {
  if (kurus === null || kurus === undefined || !/^-?\d+$/.test(kurus)) return '';
  const value = BigInt(kurus);
  const abs = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

describe('CSV cells', () => {
  it('writes every cell and amount as the reference writing does, byte for byte', () => {
    const texts = [
      '',
      'plain',
      'a,b',
      'say "hi"',
      'two\nlines',
      'cr\r',
      '=1+2',
      '+90',
      '-2',
      '@x',
      '\tx',
      '\rx',
      "'quoted",
      'Ödeme, hızlı',
      ' =lead',
    ];
    for (const text of texts) expect(csvCell(text)).toBe(referenceCell(text));
    for (const value of [0, -5, 12.5, 1e21, true, false, null, undefined]) expect(csvCell(value)).toBe(referenceCell(value));
    const amounts = ['0', '-0', '00', '-000', '5', '-5', '7', '10', '99', '100', '101', '007', '-007', '123450', '-123450'];
    amounts.push('999999999999999', '-999999999999999', '1000000000000000', '9007199254740993', '123456789012345678901');
    for (let digits = 1; digits <= 22; digits += 1) {
      for (let i = 0; i < 40; i += 1) {
        const random = Array.from({ length: digits }, () => Math.floor(Math.random() * 10)).join('');
        amounts.push(random, `-${random}`);
      }
    }
    for (const kurus of [...amounts, '', '12.5', '1e3', ' 5', null, undefined]) expect(liraDecimal(kurus)).toBe(referenceLira(kurus));
  });

  it('quotes commas, quotes and line breaks as RFC 4180 does, and defuses formula starts', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+90 555')).toBe("'+90 555");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    expect(csvCell('=HYPERLINK("a","b")')).toBe('"\'=HYPERLINK(""a"",""b"")"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(true)).toBe('true');
  });

  it('writes kuruş as lira with a dot decimal and no grouping, on bigint', () => {
    expect(liraDecimal('123450')).toBe('1234.50');
    expect(liraDecimal('5')).toBe('0.05');
    expect(liraDecimal('-5')).toBe('-0.05');
    expect(liraDecimal('0')).toBe('0.00');
    expect(liraDecimal('123456789012345678901')).toBe('1234567890123456789.01');
    expect(liraDecimal(null)).toBe('');
  });
});

describe('CSV export of the ops lists', () => {
  it('answers a deposit list as a named CSV attachment with its header row; JSON stays the default', async () => {
    const { site } = setup;
    await setup.h.createDeposit(site, 150050);
    const file = await csvOf(`/intents?siteId=${site.siteId}`);
    expect(file.status).toBe(200);
    expect(file.type).toBe('text/csv; charset=utf-8');
    expect(file.disposition).toMatch(/^attachment; filename="kasa-intents-\d{8}T\d{6}Z\.csv"$/);
    expect(file.header).toEqual(csvHeaderOf('ops-intents'));
    expect(file.text.endsWith('\r\n')).toBe(true);
    expect(file.rows[0]).toMatchObject({ amount_kurus: '150050', amount_try: '1500.50', requested_amount_try: '1500.50' });

    const json = await csvOf(`/intents?siteId=${site.siteId}`, '*/*');
    expect(json.type).toMatch(/^application\/json/);
    expect(JSON.parse(json.text)).toMatchObject({ data: [{ amount: '150050' }] });
  });

  it('writes the deposit file byte for byte as the reference writing of its JSON items, across pages', async () => {
    const { h } = setup;
    const site = await h.createSite();
    const labels = [null, 'Ayşe Yılmaz', '=HYPERLINK("https://evil.example","Ödeme, hızlı")', '+90 555', "O'Brien, Jr.", 'say "hi"', '-5'];
    const count = CSV_PAGE_ROWS + 3;
    await inBatches(count, (i) =>
      h.createDeposit(site, 1000 + ((i * 7919) % 900000), {
        externalUserId: i % 5 === 0 ? `@user-${i}` : `user-${i}`,
        ...(labels[i % labels.length] === null ? {} : { externalUserLabel: labels[i % labels.length] }),
      }),
    );
    const paid = await h.createDeposit(site, 12001, { externalUserLabel: 'Ali Veli' });
    expect((await h.transfer(paid.referenceNo, 12001, { senderName: 'AYSE YILMAZ, "B"' })).status).toBe(201);

    const [file, items] = await Promise.all([csvOf(`/intents?siteId=${site.siteId}`), jsonList(`/intents?siteId=${site.siteId}`)]);
    expect(items).toHaveLength(count + 1);
    const line = (cells: Array<string | null | undefined>) => `${cells.map(referenceCell).join(',')}\r\n`;
    const money = (value: unknown) => [value as string | null, referenceLira(value as string | null)];
    const expected =
      line(csvHeaderOf('ops-intents')) +
      items
        .map((item) => {
          const at = (name: string) => item[name] as string | null | undefined;
          return line([
            ...['intentId', 'referenceNo', 'status', 'siteId', 'externalUserId', 'externalUserLabel'].map(at),
            ...money(item.amount),
            ...money(item.requestedAmount),
            ...money(item.receivedAmount),
            ...['currency', 'createdAt', 'updatedAt', 'expiresAt', 'userConfirmedAt', 'awaitingReviewSince', 'waitingForRestSince'].map(at),
            ...['approvedAt', 'rejectedAt', 'rejectedReason', 'rejectedUserReason', 'cancelledAt'].map(at),
            ((item.senderNameMismatch as string[] | undefined) ?? []).join('; '),
          ]);
        })
        .join('');
    expect(file.text).toBe(expected);
  });

  it("refuses a bad filter with the JSON list's 400 and no CSV", async () => {
    for (const query of ['status=NOPE', 'amountMin=12.5', 'siteId=not-a-uuid', 'unknown=1']) {
      const file = await csvOf(`/intents?${query}`);
      expect(file.status).toBe(400);
      expect(file.type).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(file.text)).toMatchObject({ error: 'validation_failed', detail: 'The list filters are not valid.' });
    }
    const events = await csvOf('/events?siteId=nope');
    expect(events.status).toBe(400);
    expect(events.type).toMatch(/^application\/problem\+json/);
  });

  it('quotes and defuses what a partner sent: a label that is a formula with commas and quotes, a user id starting with @', async () => {
    const { h, other } = setup;
    const label = '=HYPERLINK("https://evil.example","Ödeme, hızlı")';
    const deposit = await h.createDeposit(other, 2500, { externalUserId: '@user-1', externalUserLabel: label });
    const file = await csvOf(`/intents?siteId=${other.siteId}&referenceNo=${deposit.referenceNo}`);
    expect(file.rows).toHaveLength(1);
    expect(file.rows[0]).toMatchObject({ external_user_label: `'${label}`, external_user_id: "'@user-1", amount_try: '25.00' });
    expect(file.text).toContain(`"'=HYPERLINK(""https://evil.example"",""Ödeme, hızlı"")"`);
  });

  it(`writes every row of a filtered view, past one internal page of ${CSV_PAGE_ROWS}, row for row as the JSON list pages it`, async () => {
    const { h } = setup;
    const site = await h.createSite();
    const count = CSV_PAGE_ROWS + 7;
    const made = await inBatches(count, (i) => h.createDeposit(site, 10000 + i * 3, { externalUserId: `bulk-${i % 2}` }));
    // Noise the filters must leave out: another user (every odd one), an amount out of range, a deposit already paid.
    await h.createDeposit(site, 999999, { externalUserId: 'bulk-0' });
    const paid = await h.createDeposit(site, 12000, { externalUserId: 'bulk-0' });
    expect((await h.transfer(paid.referenceNo, 12000)).body.status).toBe('MATCHED');

    const filter = `siteId=${site.siteId}&status=RESERVED&externalUserId=bulk-0&amountMin=10000&amountMax=20000`;
    const [file, items] = await Promise.all([csvOf(`/intents?${filter}`), jsonList(`/intents?${filter}`)]);
    expect(file.status).toBe(200);
    expect(items).toHaveLength(Math.ceil(count / 2));
    expect(file.rows).toHaveLength(items.length);
    file.rows.forEach((row, i) => {
      const item = items[i] as Record<string, string | null>;
      expect(row).toMatchObject({
        intent_id: item.intentId,
        reference_no: item.referenceNo,
        status: 'RESERVED',
        site_id: site.siteId,
        external_user_id: 'bulk-0',
        amount_kurus: item.amount,
        amount_try: liraDecimal(item.amount),
        created_at: item.createdAt,
        expires_at: item.expiresAt,
        approved_at: '',
      });
    });
    expect(new Set(file.rows.map((r) => r.intent_id)).size).toBe(file.rows.length);
    expect(made.filter((_, i) => i % 2 === 0).map((d) => d.intentId)).toEqual(expect.arrayContaining(file.rows.map((r) => r.intent_id)));

    // Oldest first, as the queue is worked: the same rows reversed. A `limit` does not cap the file.
    const oldest = await csvOf(`/intents?${filter}&order=oldest&limit=5`);
    expect(oldest.rows.map((r) => r.intent_id)).toEqual(file.rows.map((r) => r.intent_id).reverse());
  });

  it('exports withdrawals, bank transfers, returns, events and the audit log row for row as their JSON lists', async () => {
    const { h } = setup;
    const site = await h.createSite();
    await h.fund(site, 500000);
    const withdrawal = await h.createWithdrawal(site, 120075, { externalUserLabel: '+90 555 000 00 00' });
    const loose = await h.transfer('', 33300, { senderName: 'AYŞE YILMAZ', description: 'kira, "ekim"\nödemesi' });
    expect((await h.ops('POST', `/bank-transfers/${loose.body.bankTransferId}/return`, { reason: 'no deposit' })).status).toBe(201);

    const lists: Array<
      [path: string, name: Parameters<typeof csvHeaderOf>[0], idColumn: string, id: (item: Record<string, unknown>) => unknown]
    > = [
      [`/withdrawals?siteId=${site.siteId}`, 'ops-withdrawals', 'withdrawal_id', (w) => w.withdrawalId],
      ['/bank-transfers?status=UNMATCHED,RETURNING', 'ops-bank-transfers', 'bank_transfer_id', (t) => t.bankTransferId],
      ['/sender-returns?status=PENDING_REVIEW', 'ops-sender-returns', 'return_id', (r) => r.returnId],
      [`/events?siteId=${site.siteId}`, 'events', 'event_id', (e) => e.eventId],
      [`/audit?siteId=${site.siteId}`, 'audit', 'audit_id', (a) => a.auditId],
    ];
    for (const [path, name, idColumn, id] of lists) {
      const [file, items] = await Promise.all([csvOf(path), jsonList(path)]);
      expect(file.status).toBe(200);
      expect(file.header).toEqual(csvHeaderOf(name));
      expect(items.length).toBeGreaterThan(0);
      expect(file.rows.map((row) => row[idColumn])).toEqual(items.map(id));
    }

    const withdrawals = await csvOf(`/withdrawals?siteId=${site.siteId}`);
    expect(withdrawals.rows.find((w) => w.withdrawal_id === withdrawal.withdrawalId)).toMatchObject({
      external_user_label: "'+90 555 000 00 00",
      amount_kurus: '120075',
      amount_try: '1200.75',
    });
    const transfers = await csvOf('/bank-transfers?status=RETURNING');
    expect(transfers.rows.find((t) => t.bank_transfer_id === loose.body.bankTransferId)).toMatchObject({
      sender_name: 'AYŞE YILMAZ',
      description: 'kira, "ekim"\nödemesi',
      amount_try: '333.00',
    });
    const [eventsFile, events] = await Promise.all([csvOf(`/events?siteId=${site.siteId}`), jsonList(`/events?siteId=${site.siteId}`)]);
    expect(eventsFile.rows.map((e) => [e.external_user_id, e.external_user_label])).toEqual(
      events.map((e) => {
        const user = e.user as { externalUserId: string; externalUserLabel: string | null } | null;
        return [user?.externalUserId ?? '', user?.externalUserLabel ?? ''];
      }),
    );
    const audit = await csvOf(`/audit?siteId=${site.siteId}`);
    expect(audit.disposition).toMatch(/filename="kasa-audit-/);
    expect(audit.rows.every((a) => /Z$/.test(a.created_at ?? ''))).toBe(true);
  });

  it("holds only an operator's own sites' rows when the operator is limited to some", async () => {
    const { h, site, other } = setup;
    await h.createDeposit(site, 4400);
    await h.createDeposit(other, 4500);
    const email = `scoped-${Date.now()}@kasa.test`;
    const password = `pw-${Math.random().toString(36).slice(2)}-long`;
    const created = await h.ops('POST', '/operators', { email, name: 'Scoped', role: 'REVIEWER', password, siteIds: [site.siteId] });
    expect(created.status).toBe(201);
    const login = await h.ops('POST', '/login', { email, password }, '');
    expect(login.status).toBe(201);
    const token = login.body.token as string;

    const intents = await csvOf('/intents', 'text/csv', token);
    expect(intents.status).toBe(200);
    expect(intents.rows.length).toBeGreaterThan(0);
    expect(new Set(intents.rows.map((r) => r.site_id))).toEqual(new Set([site.siteId]));
    const audit = await csvOf('/audit', 'text/csv', token);
    expect(audit.rows.length).toBeGreaterThan(0);
    expect(audit.rows.every((a) => a.site_id === site.siteId)).toBe(true);
  });
});
