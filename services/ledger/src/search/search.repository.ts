import { Prisma, type BankTransfer, type PrismaClient } from '@kasa/db';
import { normalizeReference } from '../shared/ops-list.use-case.js';
import { isUuid } from '../shared/http-guards.js';
import { EVENT_FIELDS, type EventRow } from '../events/event.repository.js';

/** What an operator typed, read every way it could be meant. */
export interface SearchTerms {
  /** As typed, trimmed: an external user id or a bank transaction id is matched exactly. */
  text: string;
  /** A record's, an event's or a transfer's id. */
  id: string | null;
  /** Upper case without spaces or dashes, when it could be a reference (`kd7m x4q2-rh`). */
  reference: string | null;
  /** The digits at the end of an IBAN (4 to 26 of them, spaces ignored), or a whole IBAN. */
  ibanTail: string | null;
  /** Text to find inside a sender's, a holder's or a user's name (3 characters at least). */
  name: string | null;
}

export function searchTermsOf(typed: string): SearchTerms {
  const text = typed.trim();
  const compact = text.replace(/\s+/g, '');
  const reference = normalizeReference(text);
  const iban = compact.toUpperCase();
  return {
    text,
    id: isUuid(text.toLowerCase()) ? text.toLowerCase() : null,
    reference: /^[A-Z0-9]{6,16}$/.test(reference) ? reference : null,
    ibanTail: /^[0-9]{4,26}$/.test(compact) ? compact : /^TR[0-9]{24}$/.test(iban) ? iban : null,
    name: text.length >= 3 ? text : null,
  };
}

/** `%`, `_` and `\` are literal in what an operator types. */
function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The operators' one search box: deposits, withdrawals, bank transfers and webhook events that match a
 * reference, an id, the partner's user id, a sender's or holder's name, or an IBAN's last digits. Each kind
 * is newest first and at most `limit` long. Operators have no site scopes today (a role sees every site);
 * a scope would be one more condition on each query here.
 */
export class SearchRepository {
  constructor(private readonly db: PrismaClient) {}

  async search(terms: SearchTerms, limit: number) {
    const newest = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
    const [deposits, withdrawals, bankTransfers] = await Promise.all([
      this.db.deposit.findMany({ where: { OR: this.depositConditions(terms) }, orderBy: newest, take: limit }),
      this.db.withdrawal.findMany({ where: { OR: this.withdrawalConditions(terms) }, orderBy: newest, take: limit }),
      this.bankTransfers(terms, limit),
    ]);
    const events = await this.events(terms, [...deposits.map((d) => d.id), ...withdrawals.map((w) => w.id)], limit);
    return { deposits, withdrawals, bankTransfers, events };
  }

  private depositConditions(terms: SearchTerms): Prisma.DepositWhereInput[] {
    return [
      { externalUserId: terms.text },
      ...(terms.id ? [{ id: terms.id }] : []),
      ...(terms.reference ? [{ referenceNo: terms.reference }] : []),
      ...(terms.name ? [{ externalUserLabel: { contains: terms.name, mode: 'insensitive' as const } }] : []),
    ];
  }

  private withdrawalConditions(terms: SearchTerms): Prisma.WithdrawalWhereInput[] {
    return [
      { externalUserId: terms.text },
      ...(terms.id ? [{ id: terms.id }] : []),
      ...(terms.reference ? [{ referenceNo: terms.reference }] : []),
      ...(terms.name
        ? [
            { externalUserLabel: { contains: terms.name, mode: 'insensitive' as const } },
            { targetHolderName: { contains: terms.name, mode: 'insensitive' as const } },
          ]
        : []),
      ...(terms.ibanTail ? [{ targetIban: { endsWith: terms.ibanTail } }] : []),
    ];
  }

  /**
   * Transfers by id, bank transaction id, the intent they paid, sender name or IBAN tail, and those whose
   * description carries the reference however the sender wrote it (spaces, dashes, lower case).
   */
  private async bankTransfers(terms: SearchTerms, limit: number): Promise<BankTransfer[]> {
    const conditions = [
      Prisma.sql`bank_tx_id = ${terms.text}`,
      ...(terms.id ? [Prisma.sql`id = ${terms.id}::uuid`, Prisma.sql`intent_id = ${terms.id}::uuid`] : []),
      ...(terms.reference
        ? [
            Prisma.sql`regexp_replace(upper(description), '[[:space:]-]', '', 'g') LIKE ${likeContaining(terms.reference)}`,
            Prisma.sql`intent_id = (SELECT id FROM deposit_intents WHERE reference_no = ${terms.reference})`,
          ]
        : []),
      ...(terms.name ? [Prisma.sql`sender_name ILIKE ${likeContaining(terms.name)}`] : []),
      ...(terms.ibanTail ? [Prisma.sql`sender_iban LIKE ${`%${terms.ibanTail}`}`] : []),
    ];
    const ids = await this.db.$queryRaw<Array<{ id: string }>>`
      SELECT id::text FROM bank_transfers WHERE ${Prisma.join(conditions, ' OR ')}
      ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
    if (ids.length === 0) return [];
    return this.db.bankTransfer.findMany({
      where: { id: { in: ids.map((row) => row.id) } },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    });
  }

  /** Events by id, and the events of the deposits and withdrawals found. */
  private events(terms: SearchTerms, entityIds: string[], limit: number): Promise<Array<EventRow & { siteId: string }>> {
    const conditions: Prisma.OutboxEventWhereInput[] = [
      ...(terms.id ? [{ id: terms.id }] : []),
      ...(entityIds.length > 0 ? [{ entityId: { in: entityIds } }] : []),
    ];
    if (conditions.length === 0) return Promise.resolve([]);
    return this.db.outboxEvent.findMany({
      where: { OR: conditions },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      select: EVENT_FIELDS,
    });
  }
}
