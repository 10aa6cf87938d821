/**
 * "Export CSV" on the console's lists, in Chromium: the file a filtered list page downloads holds, row for row,
 * what the ops API's JSON list answers for the same filters.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { axeFindings } from './axe.js';
import { useConsoleBrowser } from './browser-fixture.js';

const SHOTS = '/tmp/shots-csv';
mkdirSync(SHOTS, { recursive: true });

const setup = useConsoleBrowser({ loggedInAs: 'reviewer' });

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
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
    else if (c === ',') {
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
      const file = await page.request.get(link);
      expect(file.status()).toBe(200);
      expect(file.headers()['content-type']).toBe('text/csv; charset=utf-8');
    }
  });
});
