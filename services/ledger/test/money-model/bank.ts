/**
 * The model's bank: every line that really happened on Kasa's receiving accounts during one run, whichever way (if
 * any) it reached the ledger, and the statement files the bank would give for them. It predicts nothing about
 * matching; it only knows what money moved, which the ledger must then account for exactly once.
 */
import { makeTrIban } from '@kasa/testkit';

export interface Account {
  id: string;
  iban: string;
}

/**
 * Why a line exists, as the test built it:
 * - `deposit`: a sender paying a deposit's reference; `stranger`: money naming nothing;
 * - `twin`: a credit the bank gave the same reference as the line before it (the bank's own reuse; statements only);
 * - `payout`: a batched payout leaving its batch's account, to its creditor's IBAN with its EndToEndId;
 * - `payoutDecoy`: a debit naming a payout's reference for its amount, to someone else, without the EndToEndId;
 * - `payoutElsewhere`: a payout's own debit (IBAN and EndToEndId) on an account that is not its batch's;
 * - `payoutReturn`: a sent payout coming back from its creditor, with its EndToEndId and a return reason;
 * - `strangerNamingPayout`: a stranger's credit naming a sent payout's reference for its amount.
 */
export type LineKind =
  'deposit' | 'stranger' | 'twin' | 'payout' | 'payoutDecoy' | 'payoutElsewhere' | 'payoutReturn' | 'strangerNamingPayout';

export interface BankLine {
  /** Index into the run's accounts. */
  account: number;
  bankTxId: string;
  direction: 'credit' | 'debit';
  amount: bigint;
  kind: LineKind;
  counterpartyName: string;
  counterpartyIban: string;
  description: string;
  endToEndId: string;
  returnReason: string;
  bookedAt: Date;
  /** The payout (batch item reference) a payout kind of line is about. */
  payoutRef?: string;
  /** True once some channel (hand entry, connector, statement) brought it to the ledger and was answered 2xx. */
  delivered: boolean;
}

export interface StatementFile {
  account: number;
  statementId: string;
  lines: BankLine[];
  body: string;
}

/** A statement's opening balance before the run's first line (any figure: only the file's own arithmetic is checked). */
const OPENING = 50_000_000n;

let ibanSeed = 900_000;
/** A valid IBAN of a sender or payee no one else uses. */
export const freshIban = (): string => makeTrIban((ibanSeed += 1));

export class Bank {
  readonly lines: BankLine[] = [];
  readonly files: StatementFile[] = [];
  private counter = 0;

  /** `prefix` starts every bank reference of the run: the invariants read the run's rows by it. */
  constructor(
    readonly prefix: string,
    readonly accounts: readonly Account[],
  ) {}

  /** Every reference has the same length, so a reference a fix suffixes (`X#2`) still names its line by its start. */
  get idLength(): number {
    return this.prefix.length + 5;
  }

  newBankTxId(): string {
    this.counter += 1;
    return `${this.prefix}-${String(this.counter).padStart(4, '0')}`;
  }

  add(line: Omit<BankLine, 'bankTxId' | 'bookedAt' | 'delivered' | 'endToEndId' | 'returnReason'> & Partial<BankLine>): BankLine {
    const full: BankLine = {
      bankTxId: this.newBankTxId(),
      bookedAt: new Date(),
      delivered: false,
      endToEndId: '',
      returnReason: '',
      ...line,
    };
    this.lines.push(full);
    return full;
  }

  linesOf(account: number): BankLine[] {
    return this.lines.filter((line) => line.account === account);
  }

  /**
   * The statement of `account` for its lines `from` (inclusive) to `to` (exclusive), never splitting a pair of lines
   * that share a reference. The same window always gives the same statement id and file, so asking again repeats it.
   */
  statement(account: number, from: number, to: number): StatementFile | null {
    const lines = this.linesOf(account);
    let start = Math.max(0, Math.min(from, lines.length));
    const end = Math.max(start, Math.min(to, lines.length));
    while (start > 0 && lines[start]?.kind === 'twin') start -= 1;
    const window = lines.slice(start, end);
    if (window.length === 0) return null;
    const opening = lines.slice(0, start).reduce((sum, line) => sum + signed(line), OPENING);
    const statementId = `${this.prefix}-S${account}-${start}-${end}`;
    const file = { account, statementId, lines: window, body: statementCsv(this.accounts[account]!.iban, statementId, opening, window) };
    this.files.push(file);
    return file;
  }
}

const signed = (line: BankLine): bigint => (line.direction === 'credit' ? line.amount : -line.amount);

/** Kuruş as the CSV layout's lira with a dot decimal (signed for balances). */
function lira(minor: bigint): string {
  const abs = minor < 0n ? -minor : minor;
  return `${minor < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

const cell = (value: string): string => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** A statement in Kasa's CSV layout (docs/statements.md), its balances adding up. */
function statementCsv(iban: string, statementId: string, opening: bigint, lines: readonly BankLine[]): string {
  const closing = lines.reduce((sum, line) => sum + signed(line), opening);
  const first = lines[0]!.bookedAt.toISOString();
  const last = lines[lines.length - 1]!.bookedAt.toISOString();
  const row = (cells: string[]) => cells.map(cell).join(',');
  return [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id,return_reason',
    row([iban, statementId, first, 'opening', lira(opening), 'TRY', '', '', '', '', '', '']),
    ...lines.map((line) =>
      row([
        iban,
        statementId,
        line.bookedAt.toISOString(),
        line.direction,
        lira(line.amount),
        'TRY',
        line.bankTxId,
        line.counterpartyName,
        line.counterpartyIban,
        line.description,
        line.endToEndId,
        line.returnReason,
      ]),
    ),
    row([iban, statementId, last, 'closing', lira(closing), 'TRY', '', '', '', '', '', '']),
    '',
  ].join('\n');
}
