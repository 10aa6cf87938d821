/**
 * "Export CSV" on the console's lists, in Chromium: the file a filtered list page downloads holds, row for row,
 * what the ops API's JSON list answers for the same filters.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { text as readText } from 'node:stream/consumers';
import { describe, expect, it } from '@jest/globals';
import { toExcelTurkiye } from '../src/pages/excel-csv.js';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-csv';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** RFC 4180 records split on `separator` (`;` in the Excel (Türkiye) file): quoted fields may hold it, doubled quotes and line breaks. */
function parseCsv(text: string, separator = ','): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      i += 1;
    } else field += c;
  }
  if (field !== '' || record.length > 0) records.push([...record, field]);
  return records;
}

/** A time in the Excel (Türkiye) file, `28.11.2026 14:05:03` in Türkiye time (UTC+3 all year), as an instant (ms). */
function istanbulInstant(text: string): number {
  const match = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!match) throw new Error(`not a Türkiye time: "${text}"`);
  const [d, mo, y, h, mi, sec] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h - 3, mi, sec);
}

/**
 * Holds the Excel (Türkiye) file to the machine one, row by row and cell by cell: the same header and rows; lira equal
 * as numbers (written `1500,00`), times equal as instants to the second, every other cell the same text.
 */
function expectSameRows(excel: string[][], machine: string[][]): void {
  const [header = [], ...rows] = machine;
  expect(excel[0]).toEqual(header);
  expect(excel).toHaveLength(machine.length);
  rows.forEach((row, r) => {
    const excelRow = excel[r + 1] ?? [];
    expect(excelRow).toHaveLength(row.length);
    row.forEach((cell, c) => {
      const name = header[c] ?? '';
      const shown = excelRow[c] ?? '';
      if (name.endsWith('_try') && cell !== '') {
        expect(shown).toMatch(/^-?\d+,\d{2}$/);
        expect(Number(shown.replace(',', '.'))).toBe(Number(cell));
      } else if (/_(at|since)$/.test(name) && cell !== '') {
        expect(istanbulInstant(shown)).toBe(Math.floor(Date.parse(cell) / 1000) * 1000);
      } else expect({ column: name, cell: shown }).toEqual({ column: name, cell });
    });
  });
}

/** The file's records after the header, each by its header's names. */
/** The rows of a downloaded file, which starts with the UTF-8 byte-order mark spreadsheets need (checked here). */
function rowsOf(text: string): Array<Record<string, string>> {
  expect(text.startsWith('\ufeff')).toBe(true);
  const [header = [], ...records] = parseCsv(text.slice(1));
  return records.map((cells) => Object.fromEntries(header.map((name, i) => [name, cells[i] ?? ''])));
}

/** Every item of an ops JSON list for `query`, following its cursor. */
async function jsonList(path: string, query: Record<string, string>): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ ...query, limit: '100', ...(cursor ? { cursor } : {}) });
    const res = await setup.h.ops('GET', `${path}?${params.toString()}`);
    expect(res.status).toBe(200);
    items.push(...(res.body.data as Array<Record<string, unknown>>));
    cursor = res.body.nextCursor as string | null;
  } while (cursor);
  return items;
}

describe('CSV export in the console', () => {
  it('downloads the filtered deposit list, every row of it, as the ops API lists it for the same filters', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    // 60 deposits from 100,00 ₺ up: more than the page's 50, and a minimum of 150,00 ₺ leaves some out.
    for (let i = 0; i < 60; i += 6) {
      await Promise.all(
        Array.from({ length: 6 }, (_, j) => h.createDeposit(site, 10000 + (i + j) * 125, { externalUserLabel: `Müşteri, "${i + j}"` })),
      );
    }

    await page.goto('/deposits');
    await page.getByLabel('Site').selectOption(site.siteId);
    await page.getByLabel('Smallest amount in lira (TRY)').fill('150,00');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/min=150/);
    await page.getByRole('link', { name: 'Export CSV' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/deposits-export-link.png`, fullPage: true });
    expect(await axeFindings(page)).toEqual([]);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^kasa-intents-\d{8}T\d{6}Z\.csv$/);
    const rows = rowsOf(readFileSync(await download.path(), 'utf8'));

    const items = await jsonList('/intents', { siteId: site.siteId, amountMin: '15000' });
    expect(items).toHaveLength(20);
    expect(rows).toHaveLength(items.length);
    rows.forEach((row, i) => {
      const item = items[i] as Record<string, string>;
      expect(row).toMatchObject({
        intent_id: item.intentId,
        reference_no: item.referenceNo,
        site_id: site.siteId,
        external_user_label: item.externalUserLabel,
        amount_kurus: item.amount,
        created_at: item.createdAt,
      });
      expect(Number(row.amount_try)).toBe(Number(item.amount) / 100);
    });
  });

  it('offers the Excel (Türkiye) file beside it: the same rows with ;, comma decimals and Türkiye time', async () => {
    const { h, page } = setup;
    const site = await h.createSite();
    const labels = ['Ayşe; Öztürk', '=HYPERLINK("http://evil.example")', 'Müşteri, "7"', '-2+3', '@SUM(A1)', 'Şükrü Ğ'];
    for (const [i, label] of labels.entries()) await h.createDeposit(site, 150005 + i * 123457, { externalUserLabel: label });

    await page.goto('/deposits');
    await page.getByLabel('Site').selectOption(site.siteId);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/siteId=/);
    const machineHref = (await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')) ?? '';
    const excelLink = page.getByRole('link', { name: 'Excel (Türkiye)' });
    expect(await excelLink.getAttribute('href')).toBe(machineHref.replace('/export/deposits.csv?', '/export/deposits.excel-tr.csv?'));

    const [download] = await Promise.all([page.waitForEvent('download'), excelLink.click()]);
    expect(download.suggestedFilename()).toMatch(/^kasa-intents-\d{8}T\d{6}Z-excel-tr\.csv$/);
    const excelText = readFileSync(await download.path(), 'utf8');
    expect(excelText.startsWith('\ufeff')).toBe(true);
    expect(excelText.endsWith('\r\n')).toBe(true);
    expect(excelText.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
    const machineText = await (await page.request.get(machineHref)).text();

    const excel = parseCsv(excelText.slice(1), ';');
    const machine = parseCsv(machineText.slice(1));
    expect(machine).toHaveLength(labels.length + 1);
    expectSameRows(excel, machine);
    // Formulas stay text in both, and a `;` in a name does not split its cell.
    const labelColumn = (machine[0] ?? []).indexOf('external_user_label');
    expect(excel.slice(1).map((row) => row[labelColumn])).toEqual(
      expect.arrayContaining(['\'=HYPERLINK("http://evil.example")', "'-2+3", "'@SUM(A1)", 'Ayşe; Öztürk', 'Müşteri, "7"']),
    );
    expect(excelText).toContain(';150005;1500,05;');
  });

  it('writes the Excel (Türkiye) file the same when the machine file arrives one byte at a time', async () => {
    const machine =
      'id,amount_try,created_at,label\r\n' + '1,1500.00,2026-11-28T11:05:03.120Z,"Ayşe ""A"", Ş;x"\r\n' + "2,-0.05,,'=1+2\r\n";
    const whole = await readText(Readable.from([Buffer.from(machine)]).pipe(toExcelTurkiye('Europe/Istanbul')));
    const bytes = [...Buffer.from(machine)].map((byte) => Buffer.from([byte]));
    expect(await readText(Readable.from(bytes).pipe(toExcelTurkiye('Europe/Istanbul')))).toBe(whole);
    expect(whole).toBe('id;amount_try;created_at;label\r\n' + '1;1500,00;28.11.2026 14:05:03;"Ayşe ""A"", Ş;x"\r\n' + "2;-0,05;;'=1+2\r\n");
    // A cell that would run as a formula is guarded by the Excel writer too, not only by the ledger.
    const unguarded = await readText(Readable.from([Buffer.from('label\r\n=cmd|x\r\n')]).pipe(toExcelTurkiye('Europe/Istanbul')));
    expect(unguarded).toBe("label\r\n'=cmd|x\r\n");
  });

  it('exports the audit log with its filters, and shows the ledger refusing a bad filter as an error page', async () => {
    const { page, site } = setup;
    await page.goto(`/audit?siteId=${site.siteId}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^kasa-audit-/);
    const rows = rowsOf(readFileSync(await download.path(), 'utf8'));
    const items = await jsonList('/audit', { siteId: site.siteId });
    expect(items.length).toBeGreaterThan(0);
    expect(rows.map((r) => r.audit_id)).toEqual(items.map((a) => a.auditId));

    const refused = await page.request.get('/export/deposits.csv?status=NOPE');
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-type']).toMatch(/^text\/html/);
    expect(await refused.text()).toContain('The list filters are not valid.');
    expect((await page.request.get('/export/sites.csv')).status()).toBe(404);
  });

  it('puts the link on every list page, carrying what the page filters by', async () => {
    const { page } = setup;
    const expected: Array<[string, string]> = [
      ['/withdrawals?status=SENT', '/export/withdrawals.csv?status=SENT'],
      ['/bank-transfers?status=SET_ASIDE', '/export/bank-transfers.csv?status=SET_ASIDE&mode=live'],
      ['/returns?status=PENDING_REVIEW', '/export/returns.csv?status=PENDING_REVIEW&order=oldest'],
      ['/deliveries?status=DEAD', '/export/events.csv?status=DEAD'],
    ];
    for (const [list, link] of expected) {
      await page.goto(list);
      await page.screenshot({ path: `${SHOTS}/${list.slice(1).split('?')[0] ?? 'list'}-export-link.png`, fullPage: true });
      await expect(page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).resolves.toBe(link);
      const excelLink = link.replace('.csv?', '.excel-tr.csv?');
      await expect(page.getByRole('link', { name: 'Excel (Türkiye)' }).getAttribute('href')).resolves.toBe(excelLink);
      for (const href of [link, excelLink]) {
        const file = await page.request.get(href);
        expect(file.status()).toBe(200);
        expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
      }
    }
  });
});
