/**
 * Confirmations shown after a POST-redirect-GET. The redirect carries only a code from this closed set, so
 * the query string can never put operator-visible text on a page.
 */
export const NOTICES = {
  'intent-approved': 'Deposit approved. The partner is notified by webhook.',
  'intent-rejected': 'Deposit rejected. The partner is notified by webhook.',
  'withdrawal-approved': "Withdrawal approved; the amount is reserved on the site's balance. Send the money, then mark it sent.",
  'first-approval': 'First approval recorded (1 of 2). A different operator must approve it too before any money moves.',
  'withdrawal-rejected': 'Withdrawal rejected. The partner is notified by webhook.',
  'withdrawal-sent': 'Withdrawal marked as sent. The partner is notified by webhook.',
  'withdrawal-returned': "Withdrawal marked as returned; the amount is back on the site's balance.",
  'transfer-assigned': 'Transfer assigned to the deposit; the deposit is now waiting for review.',
  'transfer-topped-up': 'Transfer credited to the approved deposit as a top-up; the partner is notified by the intent.topped_up webhook.',
  'intent-waiting': 'The deposit waits for the rest of its money, out of the review queue; it comes back when more money arrives.',
  'return-requested': 'Return asked for; it waits for review under Returns before any money is sent.',
  'return-approved': 'Return approved and booked as owed to the sender. Send the money, then mark it sent.',
  'return-rejected': 'Return rejected; the transfer is back where it was.',
  'return-sent': 'Return marked as sent; the transfer is RETURNED.',
  'payout-batch-created': 'Batch created. Download its file for the bank; the statement then marks each payout SENT or RETURNED.',
  'nothing-to-batch': 'No approved payout is left to batch: every approved withdrawal and return is in a batch already.',
  'transfer-recorded': 'Transfer recorded and matched; what it matched (or why not) is below.',
  'transfer-set-aside': 'Transfer set aside with your reason; find it under Set aside, where it can still be assigned.',
  'event-replayed': 'Event queued for a new delivery cycle (same eventId).',
  'site-created': 'Site created. Issue an API key for the partner below.',
  'key-revoked': 'API key revoked; requests with it are refused from now on.',
  'site-settings-saved': 'Settings saved and audited. A new rate limit applies at the gateway from its next request.',
  'site-unchanged': 'Nothing was changed: the form held the settings the site already has.',
  'receiving-account-created': 'Receiving account added; deposits are sent to it in turn from now on.',
  'receiving-account-saved': 'Receiving account saved and audited.',
  'receiving-account-unchanged': 'Nothing was changed: the form held what the account already has.',
  'code-verified': 'Code accepted: for the next ten minutes you may approve large amounts. Press the button again.',
  'two-factor-off': 'Two-factor authentication is off for your account.',
  'two-factor-required': 'Your role must use two-factor authentication: set it up before anything else.',
  'signed-out': 'You are signed out.',
  'signed-out-locally':
    'You are signed out of this browser, but the ledger could not be reached to revoke the session; it expires on its own.',
  expired: 'Your session has ended (expired, revoked or signed out elsewhere). Log in again.',
} as const;

export type NoticeCode = keyof typeof NOTICES;

/** The text of a notice code from a query string, or null for anything not in the set. */
export function noticeText(code: unknown): string | null {
  return typeof code === 'string' && Object.prototype.hasOwnProperty.call(NOTICES, code) ? NOTICES[code as NoticeCode] : null;
}

/** `back` with `notice=<code>` set, keeping its other parameters. */
export function withNotice(back: string, code: NoticeCode): string {
  const url = new URL(back, 'http://console.invalid');
  url.searchParams.set('notice', code);
  return `${url.pathname}${url.search}`;
}
