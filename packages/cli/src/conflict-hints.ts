import type { ErrorReason } from '@kasa/contracts';

/**
 * The next step after each 409, by the ledger's reason (docs/errors.md, conflict), printed under the error. A
 * `Record`, so a new reason does not compile until it has its hint here.
 */
export const CONFLICT_HINTS: Record<ErrorReason, string> = {
  invalid_transition: 'the record has moved on, or is not ready for this yet; show it again before deciding',
  state_changed: 'another operator acted on the record at the same moment; show it again before deciding',
  amount_exceeds_received: 'approve at most the money received (`kasa intents show <intentId>`), or leave out --amount',
  insufficient_balance:
    "the site's available balance (`kasa balances --site <siteId>`) is short; reject the withdrawal (or the adjustment's debit) or wait for deposits",
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
  otp_already_enrolled: 'two-factor authentication is already on; `kasa 2fa disable --code <code>` first to enroll a new device',
  otp_not_pending: 'start with `kasa 2fa enroll`, then confirm with `kasa 2fa confirm <code>`',
  otp_not_enrolled: 'two-factor authentication is not on for this account (`kasa 2fa enroll`)',
  duplicate_adjustment:
    'the same adjustment is already waiting (its reference is above): apply or reject it with `kasa adjustments`, or propose this one with its own reason',
  not_exact_match: 'only exact matches are approved together; approve this one on its own (`kasa intents approve <intentId>`)',
  second_approver_required:
    'you gave the first approval or proposed it, are tied to whoever did (one created or last changed the other account), or are the bootstrap token; a different operator must approve it (four-eyes)',
  nothing_to_batch: 'no approved payout is left to batch, or a withdrawal named is not APPROVED or is batched already',
  sandbox_payout: "a sandbox's simulated money never leaves through the house's account; leave it out (the simulator plays it out)",
  compliance_hold:
    'a sanctions screening hit holds it: two admins decide it with `kasa screening decide <hitId> clear|confirm` (docs/compliance.md)',
  idempotency_record_lost:
    'partner API only: the key was answered but its record was lost in a database failover; the partner creates it again under a new key',
  statement_not_final:
    'a partner asked for the balance statement of a day not finished yet; it is given from five minutes after the day ends',
  // The second factor's 401 and 403.
  otp_required: 'log in again with the code from your authenticator app (`kasa login`, or --code)',
  otp_invalid: 'the code is wrong, expired or already used; wait for the next one',
  otp_enrollment_required: 'your role must use two-factor authentication: `kasa 2fa enroll`, then `kasa 2fa confirm <code>`',
  step_up_required: 'enter a fresh code with `kasa 2fa verify <code>`, then repeat the approval within ten minutes',
  site_scope: 'your account is limited to some sites (`kasa whoami`); ask an unscoped operator to do this house-wide step',
};
