import { randomUUID } from 'node:crypto';
import { Prisma, type PrismaClient } from '@kasa/db';
import { ACCOUNTS, type JournalAccount, type JournalPosting } from './accounts.js';
import { siteRowScopeWhere, type SiteScope } from '../shared/site-scope.js';
import { writesAhead, type Writes } from '../shared/writes.repository.js';

type Tx = Prisma.TransactionClient;

/** Which way money crossed between live and sandbox (the journal check's `cross_mode_money`, in its `case`). */
export type CrossModeCase =
  'batch_item' | 'transfer_credit' | 'confirmed_by_live_line' | 'sender_return' | 'house_posting' | 'journal_posting';

export type PostResult = { ok: true; transactionId: string } | { ok: false; account: JournalAccount; balance: bigint };

/**
 * Writes journal entries and keeps `site_balances` equal to their sums, both in the caller's transaction.
 * Balance rows are always touched in account-name order, so concurrent postings of one site take their
 * row locks in the same order and cannot deadlock. They are a site's hot rows: every approval of the site waits for
 * them, so they are written with the entries (one statement for a posting, one after the entries for many), and a
 * transaction writes them as late as it can (transition.ts): a lock held across fewer round trips to a busy service.
 */
export class JournalRepository {
  constructor(private readonly db: PrismaClient) {}

  /**
   * Posts a balanced transaction in one statement: the entries, then the balance rows in account-name order.
   * `creditOnly` names a liability account that must not go into debit (for `site_available`: the site cannot be paid
   * more than it has); its row is written only if it exists and stays in credit, re-checked under the row lock, so two
   * concurrent approvals cannot both overdraw it. On refusal the other legs may be written: the caller rolls back.
   * `alongside`: other rows of the transaction written by the same statement (shared/writes.repository.ts), given the posting's
   * transaction id (a transition's audit entry names it); written on refusal too, and rolled back with the rest.
   */
  async post(
    tx: Tx,
    posting: JournalPosting,
    creditOnly?: JournalAccount,
    alongside?: (transactionId: string) => Writes,
  ): Promise<PostResult> {
    const sum = posting.legs.reduce((total, leg) => total + leg.amount, 0n);
    if (sum !== 0n || posting.legs.length < 2) throw new Error('journal transaction does not balance');
    const legs = [...posting.legs].sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0));
    const transactionId = randomUUID();
    const accounts = legs.map((leg) => leg.account);
    const amounts = legs.map((leg) => leg.amount.toString());
    const guarded = creditOnly ?? null;
    const writes = alongside?.(transactionId) ?? [];
    const written = await tx.$queryRaw<Array<{ account: string }>>`
      WITH ${writesAhead(writes)}entries AS (
        INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id, created_at)
        SELECT gen_random_uuid(), ${transactionId}::uuid, ${posting.siteId}::uuid, e.account, e.amount, ${posting.entityType},
          ${posting.entityId}::uuid, ${new Date().toISOString()}::timestamptz
        FROM unnest(${accounts}::text[], ${amounts}::bigint[]) WITH ORDINALITY AS e(account, amount, ord)
        ORDER BY e.ord
      )
      INSERT INTO site_balances (site_id, account, balance, updated_at)
      SELECT ${posting.siteId}::uuid, b.account, b.amount, now()
      FROM unnest(${accounts}::text[], ${amounts}::bigint[]) WITH ORDINALITY AS b(account, amount, ord)
      -- The guarded account's row must exist: a first posting never creates it in debit.
      WHERE b.account IS DISTINCT FROM ${guarded}::text
         OR EXISTS (SELECT 1 FROM site_balances g WHERE g.site_id = ${posting.siteId}::uuid AND g.account = b.account)
      ORDER BY b.ord
      ON CONFLICT (site_id, account) DO UPDATE SET balance = site_balances.balance + EXCLUDED.balance, updated_at = now()
        WHERE site_balances.account IS DISTINCT FROM ${guarded}::text OR site_balances.balance + EXCLUDED.balance <= 0
      RETURNING account`;
    if (guarded !== null && !written.some((row) => row.account === guarded)) {
      return { ok: false, account: guarded, balance: await this.balanceIn(tx, posting.siteId, guarded) };
    }
    return { ok: true, transactionId };
  }

  /**
   * Posts many balanced transactions that need no balance check (deposit credits), in one write per balance row
   * and one of the entries: the entries first, then the balance rows in account-name then site order, as {@link post}
   * takes them. `transactionIds`: each posting's, when the caller wrote them elsewhere first (its audit entries), so
   * that the balance rows are its last writes; returns them, in the order given.
   */
  async postMany(
    tx: Tx,
    postings: readonly JournalPosting[],
    transactionIds: readonly string[] = postings.map(() => randomUUID()),
  ): Promise<string[]> {
    if (postings.length === 0) return [];
    if (transactionIds.length !== postings.length) throw new Error('one journal transaction id per posting');
    const deltas = new Map<string, { siteId: string; account: JournalAccount; amount: bigint }>();
    for (const posting of postings) {
      const sum = posting.legs.reduce((total, leg) => total + leg.amount, 0n);
      if (sum !== 0n || posting.legs.length < 2) throw new Error('journal transaction does not balance');
      for (const leg of posting.legs) {
        const key = `${leg.account}\u0000${posting.siteId}`;
        const delta = deltas.get(key) ?? { siteId: posting.siteId, account: leg.account, amount: 0n };
        deltas.set(key, { ...delta, amount: delta.amount + leg.amount });
      }
    }
    const entries = postings.flatMap((posting, index) =>
      [...posting.legs]
        .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
        .map((leg) => ({ ...posting, transactionId: transactionIds[index] as string, leg })),
    );
    await tx.$executeRaw`
      INSERT INTO journal_entries (id, transaction_id, site_id, account, amount, entity_type, entity_id, created_at)
      SELECT gen_random_uuid(), e.transaction_id, e.site_id, e.account, e.amount, e.entity_type, e.entity_id, ${new Date().toISOString()}::timestamptz
      FROM unnest(${entries.map((e) => e.transactionId)}::uuid[], ${entries.map((e) => e.siteId)}::uuid[],
        ${entries.map((e) => e.leg.account)}::text[], ${entries.map((e) => e.leg.amount.toString())}::bigint[],
        ${entries.map((e) => e.entityType)}::text[], ${entries.map((e) => e.entityId)}::uuid[])
        WITH ORDINALITY AS e(transaction_id, site_id, account, amount, entity_type, entity_id, ord)
      ORDER BY e.ord`;
    for (const key of [...deltas.keys()].sort()) {
      const { siteId, account, amount } = deltas.get(key) as { siteId: string; account: JournalAccount; amount: bigint };
      await tx.$executeRaw`
        INSERT INTO site_balances (site_id, account, balance, updated_at)
        VALUES (${siteId}::uuid, ${account}, ${amount}, now())
        ON CONFLICT (site_id, account) DO UPDATE SET balance = site_balances.balance + EXCLUDED.balance, updated_at = now()`;
    }
    return [...transactionIds];
  }

  private async balanceIn(tx: Tx, siteId: string, account: JournalAccount): Promise<bigint> {
    const row = await tx.siteBalance.findUnique({ where: { siteId_account: { siteId, account } } });
    return row?.balance ?? 0n;
  }

  /** Raw balances per account of one site. */
  async balancesOf(siteId: string): Promise<Partial<Record<string, bigint>>> {
    const rows = await this.db.siteBalance.findMany({ where: { siteId } });
    return Object.fromEntries(rows.map((row) => [row.account, row.balance]));
  }

  /** Every site with its raw balances per account (sites without entries have none), oldest site first. */
  async allBalances(
    scope: SiteScope,
  ): Promise<Array<{ siteId: string; slug: string; name: string; livemode: boolean; balances: Partial<Record<string, bigint>> }>> {
    const sites = await this.db.site.findMany({
      where: siteRowScopeWhere(scope),
      select: { id: true, slug: true, name: true, livemode: true, balances: { select: { account: true, balance: true } } },
      orderBy: { createdAt: 'asc' },
    });
    return sites.map((site) => ({
      siteId: site.id,
      slug: site.slug,
      name: site.name,
      livemode: site.livemode,
      balances: Object.fromEntries(site.balances.map((row) => [row.account, row.balance])),
    }));
  }

  /** The journal transactions written for one intent or withdrawal, oldest first. */
  entriesOf(entityType: string, entityId: string) {
    return this.db.journalEntry.findMany({ where: { entityType, entityId }, orderBy: [{ createdAt: 'asc' }, { account: 'asc' }] });
  }

  /** Transactions whose legs do not sum to zero. */
  unbalancedTransactions(): Promise<Array<{ transactionId: string; sum: bigint }>> {
    return this.db.$queryRaw`
      SELECT transaction_id::text AS "transactionId", SUM(amount)::bigint AS sum
      FROM journal_entries GROUP BY transaction_id HAVING SUM(amount) <> 0`;
  }

  /** Balance rows that differ from the sum of their entries (either side missing counts as zero). */
  balanceMismatches(): Promise<Array<{ siteId: string; account: string; balance: bigint; entries: bigint }>> {
    return this.db.$queryRaw`
      SELECT COALESCE(b.site_id, e.site_id)::text AS "siteId", COALESCE(b.account, e.account) AS account,
        COALESCE(b.balance, 0)::bigint AS balance, COALESCE(e.total, 0)::bigint AS entries
      FROM site_balances b
      FULL OUTER JOIN (SELECT site_id, account, SUM(amount) AS total FROM journal_entries GROUP BY site_id, account) e
        ON e.site_id = b.site_id AND e.account = b.account
      WHERE COALESCE(b.balance, 0) <> COALESCE(e.total, 0)`;
  }

  /** Accounts outside the chart, and liabilities in debit (a site owed less than nothing). */
  impossibleBalances(): Promise<Array<{ siteId: string; account: string; balance: bigint }>> {
    return this.db.$queryRaw`
      SELECT site_id::text AS "siteId", account, balance FROM site_balances
      WHERE account NOT IN (${Prisma.join([...ACCOUNTS])})
         OR (account IN ('site_available', 'site_reserved', 'payouts_settled') AND balance > 0)
         OR (account = 'bank_clearing' AND balance < 0)`;
  }

  /**
   * Each site's journal against its records: received = approved deposits, reserved = approved withdrawals,
   * paid out = sent withdrawals, adjustments = applied credits less applied debits. A double posting or a missed one
   * shows up here.
   */
  recordMismatches(): Promise<Array<{ siteId: string; account: string; journal: bigint; records: bigint }>> {
    return this.db.$queryRaw`
      WITH expected AS (
        SELECT site_id, 'bank_clearing' AS account, SUM(amount) AS total FROM deposit_intents WHERE status = 'APPROVED' GROUP BY site_id
        UNION ALL
        SELECT site_id, 'site_reserved', -SUM(amount) FROM withdrawals WHERE status = 'APPROVED' GROUP BY site_id
        UNION ALL
        SELECT site_id, 'payouts_settled', -SUM(amount) FROM withdrawals WHERE status = 'SENT' GROUP BY site_id
        UNION ALL
        SELECT site_id, 'adjustments', SUM(CASE direction WHEN 'CREDIT' THEN amount ELSE -amount END)
        FROM balance_adjustments WHERE status = 'APPLIED' GROUP BY site_id
      ), actual AS (
        SELECT site_id, account, balance AS total FROM site_balances
        WHERE account IN ('bank_clearing', 'site_reserved', 'payouts_settled', 'adjustments')
      )
      SELECT COALESCE(a.site_id, x.site_id)::text AS "siteId", COALESCE(a.account, x.account) AS account,
        COALESCE(a.total, 0)::bigint AS journal, COALESCE(x.total, 0)::bigint AS records
      FROM actual a FULL OUTER JOIN expected x ON x.site_id = a.site_id AND x.account = a.account
      WHERE COALESCE(a.total, 0) <> COALESCE(x.total, 0)`;
  }

  /**
   * Money off the books. Per approved deposit: what arrived (transfers MATCHED or ASSIGNED to it) must equal what was
   * credited + what its remainder returns give back or are giving back (any not REJECTED) + what is set aside on it.
   * A deposit not approved has no remainder returns and nothing set aside. Per transfer: its remainder returns give back
   * at most its own amount, and only for the deposit it paid, so each return goes to the sender who sent that money.
   */
  unaccountedMoney(): Promise<
    Array<{ intentId: string; bankTransferId: string | null; received: bigint; credited: bigint; returned: bigint; setAside: bigint }>
  > {
    return this.db.$queryRaw`
      WITH received AS (
        SELECT intent_id, SUM(amount) AS total FROM bank_transfers
        WHERE intent_id IS NOT NULL AND status IN ('MATCHED', 'ASSIGNED') GROUP BY intent_id
      ), returned AS (
        SELECT intent_id, SUM(amount) AS total FROM sender_returns
        WHERE intent_id IS NOT NULL AND status <> 'REJECTED' GROUP BY intent_id
      )
      SELECT d.id::text AS "intentId", NULL::text AS "bankTransferId", COALESCE(r.total, 0)::bigint AS received,
        (CASE WHEN d.status = 'APPROVED' THEN d.amount ELSE 0 END)::bigint AS credited,
        COALESCE(x.total, 0)::bigint AS returned, COALESCE(d.remainder_set_aside, 0)::bigint AS "setAside"
      FROM deposit_intents d
      LEFT JOIN received r ON r.intent_id = d.id
      LEFT JOIN returned x ON x.intent_id = d.id
      -- A credit above what arrived is unbackedCredits' to report.
      WHERE (d.status = 'APPROVED' AND d.amount <= COALESCE(r.total, 0)
             AND COALESCE(r.total, 0) <> d.amount + COALESCE(x.total, 0) + COALESCE(d.remainder_set_aside, 0))
         OR (d.status <> 'APPROVED' AND (x.total IS NOT NULL OR d.remainder_set_aside IS NOT NULL))
      UNION ALL
      SELECT MIN(x.intent_id::text), t.id::text, t.amount::bigint, 0::bigint, SUM(x.amount)::bigint, 0::bigint
      FROM sender_returns x JOIN bank_transfers t ON t.id = x.bank_transfer_id
      WHERE x.intent_id IS NOT NULL AND x.status <> 'REJECTED'
      GROUP BY t.id, t.amount
      HAVING SUM(x.amount) > t.amount OR bool_or(t.intent_id IS DISTINCT FROM x.intent_id OR t.status NOT IN ('MATCHED', 'ASSIGNED'))`;
  }

  /**
   * Credits not backed by money that arrived: a deposit whose journal credit (its `bank_clearing` debit)
   * or whose approved `amount` exceeds the transfers matched or assigned to it, or a credit posted for an
   * intent of another site or for none at all. Money is created only by money that arrived, so this holds
   * even if a future route forgets the approval's own check.
   */
  unbackedCredits(): Promise<
    Array<{ siteId: string; intentId: string; source: 'journal' | 'record'; credited: bigint; received: bigint }>
  > {
    return this.db.$queryRaw`
      WITH received AS (
        SELECT intent_id, SUM(amount) AS total FROM bank_transfers
        WHERE intent_id IS NOT NULL AND status IN ('MATCHED', 'ASSIGNED') GROUP BY intent_id
      ), credits AS (
        SELECT site_id, entity_id AS intent_id, 'journal' AS source, SUM(amount) AS total FROM journal_entries
        WHERE entity_type = 'deposit_intent' AND account = 'bank_clearing' GROUP BY site_id, entity_id
        UNION ALL
        SELECT site_id, id, 'record', amount FROM deposit_intents WHERE status = 'APPROVED'
      )
      SELECT c.site_id::text AS "siteId", c.intent_id::text AS "intentId", c.source, c.total::bigint AS credited,
        COALESCE(r.total, 0)::bigint AS received
      FROM credits c
      LEFT JOIN received r ON r.intent_id = c.intent_id
      LEFT JOIN deposit_intents d ON d.id = c.intent_id
      WHERE c.total > COALESCE(r.total, 0) OR d.site_id IS DISTINCT FROM c.site_id`;
  }

  /**
   * Money that crossed between live and sandbox (docs/sandbox.md, The boundary), whatever wrote it: a payout batch
   * item of a sandbox's withdrawal or of a return of simulated money; a transfer credited to a deposit of the other
   * mode; a sandbox's withdrawal marked SENT by a real debit line (its bankTxId or EndToEndId) or RETURNED by a real
   * return credit (a PAYOUT_RETURNED transfer naming its reference); a return of another mode than its transfer or its
   * deposit; a house posting of another mode than its return; a site journal posting about another mode's record.
   * The database's triggers refuse each of these; this finds one written around them (or before them).
   */
  crossModeMoney(): Promise<Array<{ case: CrossModeCase; recordType: string; recordId: string; otherId: string | null }>> {
    return this.db.$queryRaw`
      SELECT 'batch_item' AS "case", 'payout_batch_item' AS "recordType", i.id::text AS "recordId",
        COALESCE(i.withdrawal_id, i.sender_return_id)::text AS "otherId"
      FROM payout_batch_items i
      LEFT JOIN withdrawals w ON w.id = i.withdrawal_id LEFT JOIN sites ws ON ws.id = w.site_id
      LEFT JOIN sender_returns r ON r.id = i.sender_return_id LEFT JOIN bank_transfers rt ON rt.id = r.bank_transfer_id
      WHERE ws.livemode = false OR r.livemode = false OR rt.livemode = false
      UNION ALL
      SELECT 'transfer_credit', 'bank_transfer', t.id::text, t.intent_id::text
      FROM bank_transfers t JOIN deposit_intents d ON d.id = t.intent_id JOIN sites s ON s.id = d.site_id
      WHERE s.livemode <> t.livemode
      UNION ALL
      SELECT 'confirmed_by_live_line', 'withdrawal', w.id::text, x.bank_tx_id
      FROM withdrawals w JOIN sites s ON s.id = w.site_id AND NOT s.livemode
      JOIN LATERAL (
        SELECT b.bank_tx_id FROM bank_statement_debits b
        WHERE w.status IN ('SENT', 'RETURNED') AND (b.bank_tx_id = w.sent_bank_tx_id OR upper(b.end_to_end_id) = w.reference_no)
        UNION ALL
        SELECT t.bank_tx_id FROM bank_transfers t
        WHERE w.status = 'RETURNED' AND t.livemode AND t.status = 'PAYOUT_RETURNED'
          AND position(w.reference_no IN upper(t.description)) > 0
        LIMIT 1
      ) x ON true
      UNION ALL
      SELECT 'sender_return', 'sender_return', r.id::text, r.bank_transfer_id::text
      FROM sender_returns r JOIN bank_transfers t ON t.id = r.bank_transfer_id
      LEFT JOIN deposit_intents d ON d.id = r.intent_id LEFT JOIN sites s ON s.id = d.site_id
      WHERE t.livemode <> r.livemode OR s.livemode <> r.livemode
      UNION ALL
      SELECT 'house_posting', 'house_journal_entry', h.id::text, h.entity_id::text
      FROM house_journal_entries h JOIN sender_returns r ON r.id = h.entity_id AND h.entity_type = 'sender_return'
      WHERE h.livemode <> r.livemode
      UNION ALL
      SELECT 'journal_posting', 'journal_entry', e.id::text, e.entity_id::text
      FROM journal_entries e JOIN sites s ON s.id = e.site_id
      LEFT JOIN deposit_intents d ON e.entity_type = 'deposit_intent' AND d.id = e.entity_id
      LEFT JOIN withdrawals w ON e.entity_type = 'withdrawal' AND w.id = e.entity_id
      JOIN sites owner ON owner.id = COALESCE(d.site_id, w.site_id)
      WHERE owner.livemode <> s.livemode`;
  }

  /**
   * One bank transaction recorded twice on an account (docs/statements.md, "Which lines are the same line"): a hand
   * entry the bank's line never answered beside a bank line of the account with its reference (that line should have
   * confirmed it), or a hand entry answered by a line that was also recorded as a transfer of its own. The code
   * decides each line under the account's lock; this finds one written around it.
   */
  bankLinesCreditedTwice(): Promise<
    Array<{ receivingAccountId: string; bankTxId: string; handEntryId: string; otherId: string; handAmount: bigint; otherAmount: bigint }>
  > {
    return this.db.$queryRaw`
      SELECT h.receiving_account_id::text AS "receivingAccountId", h.bank_tx_id AS "bankTxId", h.id::text AS "handEntryId",
        t.id::text AS "otherId", h.amount AS "handAmount", t.amount AS "otherAmount"
      FROM bank_transfers h
      JOIN bank_transfers t ON t.receiving_account_id = h.receiving_account_id AND t.id <> h.id AND NOT t.hand_entry
        AND ((h.bank_line_key IS NULL AND t.bank_tx_id = h.bank_tx_id) OR t.line_key = h.bank_line_key)
      WHERE h.hand_entry
      ORDER BY h.created_at, h.id`;
  }
}
