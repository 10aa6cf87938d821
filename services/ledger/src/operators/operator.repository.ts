import type pg from 'pg';
import type { Operator, OperatorRole, OperatorToken, Prisma, PrismaClient } from '@kasa/db';
import { isUuid } from '../shared/http-guards.js';

type Tx = Prisma.TransactionClient;

/** The operator a valid, unrevoked, unexpired token of an enabled account belongs to. */
export interface TokenOwner {
  tokenId: string;
  operatorId: string;
  email: string;
  role: OperatorRole;
  /** Whether the operator has a confirmed second factor. */
  secondFactorEnrolled: boolean;
  /** When a code was last entered on this token (step-up), or null. */
  secondFactorAt: Date | null;
  /** The operator's scope with the test twins of its live sites added; null: every site. */
  siteIds: string[] | null;
}

/** What four-eyes reads of an approver's account under the approval's lock. */
export interface Approver {
  id: string;
  disabledAt: Date | null;
  /** Who created the account (an operator id or `bootstrap`); null when unknown. */
  createdBy: string | null;
  /** The admin who last changed the account; null when nobody else did. */
  changedBy: string | null;
}

/**
 * The session lookup of every authenticated ops request, one statement: the token (unrevoked, unexpired at `$2`), its
 * enabled operator, and a scope's live sites with their test twins (an empty scope: null, every site).
 */
const FIND_OWNER = `SELECT t.id::text AS "tokenId", t.operator_id::text AS "operatorId", o.email, o.role::text AS role,
    o.totp_enrolled_at IS NOT NULL AS "secondFactorEnrolled", t.second_factor_at AS "secondFactorAt",
    CASE WHEN coalesce(cardinality(o.site_ids), 0) = 0 THEN NULL
      ELSE o.site_ids::text[] || ARRAY(SELECT s.id::text FROM sites s WHERE s.live_site_id = ANY(o.site_ids)) END AS "siteIds"
  FROM operator_tokens t JOIN operators o ON o.id = t.operator_id
  WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2) AND o.disabled_at IS NULL`;

/** How the session lookup runs: on the primary's pool, prepared by name where each client keeps its own session. */
export interface OperatorAccess {
  pool: pg.Pool;
  /** Only with DATABASE_POOL_MODE=session: behind a transaction pooler the name may be unknown on the next connection. */
  namedStatements: boolean;
}

/** Operator accounts and their bearer tokens (only token hashes are stored). */
export class OperatorRepository {
  constructor(
    private readonly db: PrismaClient,
    private readonly access: OperatorAccess,
  ) {}

  create(
    tx: Tx,
    input: { email: string; name: string; role: OperatorRole; passwordHash: string | null; siteIds?: string[]; createdBy: string },
  ): Promise<Operator> {
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
  async emailsOf(ids: string[], db: PrismaClient | Tx = this.db): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await db.operator.findMany({ where: { id: { in: ids } }, select: { id: true, email: true } });
    return new Map(rows.map((row) => [row.id, row.email]));
  }

  /** Returns false when the operator was already disabled or does not exist. */
  async disable(tx: Tx, id: string, at: Date): Promise<boolean> {
    const result = await tx.operator.updateMany({ where: { id, disabledAt: null }, data: { disabledAt: at } });
    if (result.count === 1) await tx.operatorToken.updateMany({ where: { operatorId: id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }

  createToken(
    tx: Tx,
    input: { operatorId: string; tokenHash: string; label: string; expiresAt: Date | null; secondFactorAt?: Date | null },
  ): Promise<OperatorToken> {
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
    const values = [tokenHash, now.toISOString()];
    const result = await this.access.pool.query<TokenOwner>(
      this.access.namedStatements ? { name: 'operator-find-owner', text: FIND_OWNER, values } : { text: FIND_OWNER, values },
    );
    return result.rows[0] ?? null;
  }

  /**
   * Sets an operator's scope (live site ids; empty: every site), `changedBy` the admin who did, and answers the
   * operator before and after, or null.
   */
  async setSiteIds(tx: Tx, id: string, siteIds: string[], changedBy: string): Promise<{ before: Operator; after: Operator } | null> {
    const before = await tx.operator.findUnique({ where: { id } });
    if (!before) return null;
    const after = await tx.operator.update({ where: { id }, data: { siteIds, changedBy } });
    return { before, after };
  }

  /** Records that another operator (an admin) changed this account: four-eyes never pairs the two (docs/operations.md). */
  async markChangedBy(tx: Tx, id: string, changedBy: string): Promise<void> {
    await tx.operator.updateMany({ where: { id }, data: { changedBy } });
  }

  /**
   * The accounts behind a payout's approvals, read in the approval's transaction under `FOR SHARE`: disabling one, or
   * an admin changing one, waits until the approval commits, and an approval that comes after sees it. Ids that name
   * no account (the bootstrap token's `bootstrap`) are absent.
   */
  async lockApprovers(tx: Tx, ids: readonly string[]): Promise<Map<string, Approver>> {
    const uuids = ids.filter(isUuid);
    if (uuids.length === 0) return new Map();
    const rows = await tx.$queryRaw<Approver[]>`
      SELECT id::text AS id, disabled_at AS "disabledAt", created_by AS "createdBy", changed_by AS "changedBy"
      FROM operators WHERE id = ANY(${uuids}::uuid[]) ORDER BY id FOR SHARE`;
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Of the given ids, those that name no live site (a test twin is never named in a scope: its live site is). */
  async notLiveSites(ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const found = await this.db.site.findMany({ where: { id: { in: ids }, livemode: true }, select: { id: true } });
    const live = new Set(found.map((site) => site.id));
    return ids.filter((id) => !live.has(id));
  }

  /** Stores a new, unconfirmed TOTP secret (sealed); false when a confirmed one is on. */
  async startTotp(id: string, sealedSecret: string): Promise<boolean> {
    const result = await this.db.operator.updateMany({
      where: { id, totpEnrolledAt: null },
      data: { totpSecretEnc: sealedSecret, totpLastStep: null },
    });
    return result.count === 1;
  }

  /** Confirms the pending secret at `step` and replaces the recovery codes; false when it was confirmed meanwhile. */
  async confirmTotp(tx: Tx, id: string, step: number, at: Date, recoveryCodeHashes: string[]): Promise<boolean> {
    const result = await tx.operator.updateMany({ where: { id, totpEnrolledAt: null }, data: { totpEnrolledAt: at, totpLastStep: step } });
    if (result.count !== 1) return false;
    await tx.operatorRecoveryCode.deleteMany({ where: { operatorId: id } });
    await tx.operatorRecoveryCode.createMany({ data: recoveryCodeHashes.map((codeHash) => ({ operatorId: id, codeHash })) });
    return true;
  }

  /** Accepts a TOTP step once: false when this step (or a later one) was already used. */
  async acceptTotpStep(id: string, step: number): Promise<boolean> {
    const result = await this.db.operator.updateMany({
      where: { id, totpEnrolledAt: { not: null }, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
      data: { totpLastStep: step },
    });
    return result.count === 1;
  }

  /** Uses a recovery code once: false when it is unknown, someone else's or already used. */
  async useRecoveryCode(tx: Tx, operatorId: string, codeHash: string, at: Date): Promise<boolean> {
    const result = await tx.operatorRecoveryCode.updateMany({ where: { operatorId, codeHash, usedAt: null }, data: { usedAt: at } });
    return result.count === 1;
  }

  /** How many unused recovery codes the operator has left. */
  unusedRecoveryCodes(operatorId: string): Promise<number> {
    return this.db.operatorRecoveryCode.count({ where: { operatorId, usedAt: null } });
  }

  /** Turns the second factor off: the secret and every recovery code go. False when it was off already. */
  async clearTotp(tx: Tx, id: string): Promise<boolean> {
    const result = await tx.operator.updateMany({
      where: { id, totpSecretEnc: { not: null } },
      data: { totpSecretEnc: null, totpEnrolledAt: null, totpLastStep: null },
    });
    await tx.operatorRecoveryCode.deleteMany({ where: { operatorId: id } });
    return result.count === 1;
  }

  /** Records that a code was entered on this token now (login with a code, or step-up). */
  async stampSecondFactor(tokenId: string, at: Date): Promise<void> {
    await this.db.operatorToken.update({ where: { id: tokenId }, data: { secondFactorAt: at } });
  }

  /** Returns false when the token was already revoked (or does not exist). */
  async revokeToken(tx: Tx, id: string, at: Date): Promise<boolean> {
    const result = await tx.operatorToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } });
    return result.count === 1;
  }
}
