import type { Prisma, PrismaClient, ReceivingBankAccount } from '@kasa/db';

/** What a receiving account is made of, as an admin gives it. */
export interface ReceivingAccountFields {
  bankName: string;
  holderName: string;
  iban: string;
  accountNumber: string | null;
  branchCode: string | null;
}

/** The service's own bank accounts; the active ones are handed out to intents in turn. */
export class ReceivingAccountRepository {
  private active: { accounts: ReceivingBankAccount[]; until: number } | null = null;
  private turn = 0;

  constructor(
    private readonly db: PrismaClient,
    private readonly cacheMs = 10_000,
  ) {}

  /** Inside the caller's transaction, so the audit entry commits with the account. */
  create(tx: Prisma.TransactionClient, input: ReceivingAccountFields): Promise<ReceivingBankAccount> {
    this.active = null;
    return tx.receivingBankAccount.create({ data: input });
  }

  /** The account, locked until the caller's transaction ends, so two changes of it apply one after the other. */
  async lock(tx: Prisma.TransactionClient, id: string): Promise<ReceivingBankAccount | null> {
    await tx.$queryRaw`SELECT 1 FROM receiving_bank_accounts WHERE id = ${id}::uuid FOR UPDATE`;
    return tx.receivingBankAccount.findUnique({ where: { id } });
  }

  update(tx: Prisma.TransactionClient, id: string, change: Partial<Omit<ReceivingAccountFields, 'iban'>>): Promise<ReceivingBankAccount> {
    this.active = null;
    return tx.receivingBankAccount.update({ where: { id }, data: change });
  }

  list(): Promise<ReceivingBankAccount[]> {
    return this.db.receivingBankAccount.findMany({ orderBy: { createdAt: 'asc' } });
  }

  findById(id: string): Promise<ReceivingBankAccount | null> {
    return this.db.receivingBankAccount.findUnique({ where: { id } });
  }

  /**
   * Whether `id` was handed out from a stale list: reads the active accounts again and answers true when `id` is no
   * longer among them (the caller picks another with {@link next}). Other processes' caches keep a deactivated account
   * for at most `cacheMs`; the deposit insert checks the account is active, so none is handed out meanwhile.
   */
  async refreshUnlessActive(id: string): Promise<boolean> {
    const accounts = await this.activeAccounts(true);
    return !accounts.some((account) => account.id === id);
  }

  /** Round-robin over active accounts; null when none is configured. */
  async next(): Promise<ReceivingBankAccount | null> {
    const accounts = await this.activeAccounts(false);
    if (accounts.length === 0) return null;
    this.turn = (this.turn + 1) % accounts.length;
    return accounts[this.turn] ?? null;
  }

  /** The active accounts, from the cache while it is fresh unless `fresh`. */
  private async activeAccounts(fresh: boolean): Promise<ReceivingBankAccount[]> {
    if (fresh || !this.active || this.active.until < Date.now()) {
      const accounts = await this.db.receivingBankAccount.findMany({ where: { active: true }, orderBy: { createdAt: 'asc' } });
      this.active = { accounts, until: Date.now() + this.cacheMs };
    }
    return this.active.accounts;
  }
}
