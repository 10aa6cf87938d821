import { t, type MessageKey } from '../i18n/index.js';

/**
 * Confirmations shown after a POST-redirect-GET. The redirect carries only a code from this closed set, so
 * the query string can never put operator-visible text on a page.
 */
export const NOTICES = [
  'intent-approved',
  'intent-rejected',
  'withdrawal-approved',
  'first-approval',
  'withdrawal-rejected',
  'withdrawal-sent',
  'withdrawal-returned',
  'transfer-assigned',
  'transfer-topped-up',
  'intent-waiting',
  'return-requested',
  'return-approved',
  'return-rejected',
  'return-sent',
  'adjustment-proposed',
  'adjustment-applied',
  'adjustment-rejected',
  'payout-batch-created',
  'nothing-to-batch',
  'screening-first-decision',
  'screening-cleared',
  'screening-confirmed',
  'transfer-recorded',
  'transfer-set-aside',
  'event-replayed',
  'site-created',
  'key-revoked',
  'site-settings-saved',
  'site-unchanged',
  'receiving-account-created',
  'receiving-account-saved',
  'receiving-account-unchanged',
  'erasure-request-filed',
  'risk-flag-reviewed',
  'code-verified',
  'two-factor-off',
  'two-factor-required',
  'signed-out',
  'signed-out-locally',
  'expired',
] as const;

export type NoticeCode = (typeof NOTICES)[number];

const CODES: ReadonlySet<string> = new Set(NOTICES);

/** The message of a notice: its text is in the catalogue (messages/errors.ts), under `errors.notice.<code>`. */
function noticeKey(code: NoticeCode): MessageKey {
  return `errors.notice.${code}`;
}

/** The text of a notice code from a query string in the request's language, or null for anything not in the set. */
export function noticeText(code: unknown): string | null {
  return typeof code === 'string' && CODES.has(code) ? t(noticeKey(code as NoticeCode)) : null;
}

/** `back` with `notice=<code>` set, keeping its other parameters. */
export function withNotice(back: string, code: NoticeCode): string {
  const url = new URL(back, 'http://console.invalid');
  url.searchParams.set('notice', code);
  return `${url.pathname}${url.search}`;
}
