/**
 * The demo's own books: each user's balance and the webhook events already applied, kept in one JSON file so
 * a restart neither forgets a credit nor applies a redelivered event twice.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

interface Books {
  /** Kuruş, as digit strings (never floats). */
  balances: Record<string, string>;
  /** Whose deposit each intent is: Kasa's records name the intent, the partner knows its user. */
  intentUsers: Record<string, string>;
  appliedEventIds: string[];
}

export class DemoStore {
  private books: Books;

  constructor(private readonly file: string) {
    this.books = existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as Books)
      : { balances: {}, intentUsers: {}, appliedEventIds: [] };
  }

  balanceOf(userId: string): bigint {
    return BigInt(this.books.balances[userId] ?? '0');
  }

  /** Remembers whose deposit an intent is, when the deposit is created. */
  remember(intentId: string, userId: string): void {
    this.books.intentUsers[intentId] = userId;
    this.save();
  }

  userOf(intentId: string): string | undefined {
    return this.books.intentUsers[intentId];
  }

  /** Applies a credit once per event id; false when the event was already applied (a redelivery). */
  credit(eventId: string, userId: string, amount: bigint): boolean {
    if (this.books.appliedEventIds.includes(eventId)) return false;
    this.books.balances[userId] = (this.balanceOf(userId) + amount).toString();
    this.books.appliedEventIds.push(eventId);
    this.save();
    return true;
  }

  /** Remembers an event that moves no money, so a redelivery is recognised too. */
  seen(eventId: string): boolean {
    if (this.books.appliedEventIds.includes(eventId)) return false;
    this.books.appliedEventIds.push(eventId);
    this.save();
    return true;
  }

  private save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    // Written whole and renamed into place, so a crash mid-write leaves the previous books intact.
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.books, null, 2));
    renameSync(`${this.file}.tmp`, this.file);
  }
}
