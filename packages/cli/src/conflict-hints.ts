import type { ConflictReason } from '@kasa/contracts';

/**
 * The next step after each 409, by the ledger's reason (docs/errors.md, conflict), printed under the error. A
 * `Record`, so a new reason does not compile until it has its hint here.
 */
export const CONFLICT_HINTS: Record<ConflictReason, string> = {
  invalid_transition: 'the record has moved on, or is not ready for this yet; show it again before deciding',
  state_changed: 'another operator acted on the record at the same moment; show it again before deciding',
  amount_exceeds_received: 'approve at most the money received (`kasa intents show <intentId>`), or leave out --amount',
  insufficient_balance:
    "the site's available balance (`kasa balances --site <siteId>`) is short; reject the withdrawal or wait for deposits",
  intent_decided:
    'the deposit was already approved or rejected: set the transfer aside (`kasa transfers set-aside`) or return it to the sender (`kasa transfers return`)',
  transfer_settled: 'the transfer is no longer unmatched; `kasa transfers list` shows where it went',
  transfer_not_returnable:
    'only unmatched or set-aside transfers, or money paid for a rejected deposit, go back; a deposit kept this one, or it is already being returned',
  bank_tx_id_reused: 'this bankTxId is recorded with other details; check the statement line against `kasa transfers list`',
  event_in_delivery: 'replay it once it is DELIVERED or DEAD (`kasa events list --status DEAD`)',
  webhook_not_configured: 'the site has no webhook URL or signing secret yet (the partner sets them with PUT /site/webhook-config)',
  operator_disabled: 'the operator is disabled; no token can be issued for them',
  self_disable: 'ask another admin to disable this account',
  bootstrap_token: 'the bootstrap token cannot be logged out; log in as an operator for a token that can',
};
