import { formatAmount } from './amount.js';
import type { Statement } from './statement.js';

/**
 * Whether the statement adds up: opening + credits - debits must equal closing. A statement that does not is
 * incomplete or altered, and none of its lines should be trusted. Returns the problem described with the statement's
 * id and the amounts, or null when it adds up.
 */
export function balanceProblem(statement: Statement): string | null {
  const { id, currency } = statement;
  const foreign = statement.lines.find((line) => line.currency !== currency);
  if (foreign) {
    return `Statement ${id}: line ${foreign.bankTxId} is in ${foreign.currency} in a ${currency} statement, so the balance cannot be checked`;
  }
  let credits = 0n;
  let debits = 0n;
  for (const line of statement.lines) {
    if (line.direction === 'credit') credits += line.amount;
    else debits += line.amount;
  }
  const expected = statement.openingBalance + credits - debits;
  if (expected === statement.closingBalance) return null;
  const show = (minor: bigint) => formatAmount(minor, currency);
  return (
    `Statement ${id}: opening ${show(statement.openingBalance)} + credits ${show(credits)} - debits ${show(debits)} = ${show(expected)} ${currency}, ` +
    `but the closing balance is ${show(statement.closingBalance)} (off by ${show(statement.closingBalance - expected)})`
  );
}
