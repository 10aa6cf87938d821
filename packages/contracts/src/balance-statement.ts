import { canonicalJson } from './canonical-json.js';

/**
 * What moved a site's balance, one name per journal posting a partner can see (docs/api.md, Balance transactions).
 * Each is read off the posting's two legs, never stored: `deposit` credits `available`; a withdrawal's approval moves
 * money from `available` to `reserved` (`withdrawal_reserved`), its rejection after approval back
 * (`withdrawal_released`), its payout takes it from `reserved` (`withdrawal_sent`) and the bank's return puts it on
 * `available` again (`withdrawal_returned`); a balance adjustment two of the service's operators applied adds to
 * `available` or takes from it (`adjustment`, docs/operations.md, Balance adjustments).
 */
export const BALANCE_TRANSACTION_TYPES = [
  'deposit',
  'withdrawal_reserved',
  'withdrawal_released',
  'withdrawal_sent',
  'withdrawal_returned',
  'adjustment',
] as const;
export type BalanceTransactionType = (typeof BALANCE_TRANSACTION_TYPES)[number];

/** The two balances a partner reads (`GET /balance`): each movement names the one it changed. */
export const PARTNER_BALANCES = ['available', 'reserved'] as const;
export type PartnerBalanceName = (typeof PARTNER_BALANCES)[number];

/** The `format` of a signed daily statement; part of the signed bytes, so a signature cannot be reused for another kind of document. */
export const BALANCE_STATEMENT_FORMAT = 'kasa.balance-statement.v1';

/** The time zone whose calendar days a statement covers. */
export const BALANCE_STATEMENT_TIME_ZONE = 'Europe/Istanbul';

/**
 * The bytes a statement's signature covers: the canonical JSON (keys sorted at every depth, no spaces) of the
 * statement without its `signature` member, as UTF-8. The SDK's `verifyBalanceStatement` computes the same.
 */
export function balanceStatementMessage(statement: Record<string, unknown>): Buffer {
  const { signature: _signature, ...signed } = statement;
  return Buffer.from(canonicalJson(signed), 'utf8');
}
