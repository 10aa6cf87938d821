import type { Operator, OperatorRole, OperatorToken, Prisma, PrismaClient } from '@kasa/db';

type Tx = Prisma.TransactionClient;

/** The operator a valid, unrevoked, unexpired token of an enabled account belongs to. */
export interface TokenOwner {
  tokenId: string;
  operatorId: string;
  email: string;
  role: OperatorRole;
}

/** Operator accounts and their bearer tokens (only token hashes are stored). */
export class OperatorRepository {
  constructor(private readonly db: PrismaClient) {}

  create(tx: Tx, input: { email: string; name: string; role: OperatorRole; passwordHash: string | null }): Promise<Operator> {
    return tx.operator.create({ data: input });
  }

  findByEmail(email: string): Promise<Operator | null> {
    return this.db.operator.findUnique({ where: { email } });
  }

  findById(id: string): Promise<Operator | null> {
    return this.db.operator.findUnique({ where: { id } });
  }

  list(): Promise<Operator[]> {
    return this.db.operator.findMany({ orderBy: { createdAt: 'asc' } });
  }

  /** Emails of the given operator ids, for showing "who" next to audit entries. */
  async emailsOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.operator.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /** Returns false when the operator was already disabled or does not exist. */
  async disable(tx: Tx, id: string, at: Date): Promise<boolean> {
    const result = await tx.operator.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: at } });
    if (result.count === 1) await tx.operatorToken.updateMany({ where: { operatorId: id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }

  createToken(tx: Tx, input: { operatorId: string; tokenHash: string; label: string; expiresAt: Date | null }): Promise<OperatorToken> {
    return tx.operatorToken.create({ data: input });
  }

  findToken(id: string): Promise<OperatorToken | null> {
    return this.db.operatorToken.findUnique({ where: { id } });
  }

  listTokens(operatorId: string): Promise<OperatorToken[]> {
    return this.db.operatorToken.findMany({ where: { operatorId }, orderBy: { createdAt: 'desc' } });
  }

  /**
   * Resolves a token hash to its owner. Read from PostgreSQL on every request (no cache), so a revoked
   * token or a disabled operator is refused from the very next request on.
   */
  async findOwner(tokenHash: string, now: Date): Promise<TokenOwner | null> {
    const token = await this.db.operatorToken.findFirst({
      where: {
        tokenHash,
        revokedAt: null,
        OR: [{ expiresAt: null }, { expiresAt: { gt: now } }],
        operator: { disabledAt: null },
      },
      include: { operator: { select: { email: true, role: true } } },
    });
    if (!token) return null;
    return { tokenId: token.id, operatorId: token.operatorId, email: token.operator.email, role: token.operator.role };
  }

  /** Returns false when the token was already revoked (or does not exist). */
  async revokeToken(tx: Tx, id: string, at: Date): Promise<boolean> {
    const result = await tx.operatorToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }
}
