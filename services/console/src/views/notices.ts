import { MESSAGES, t, type MessageKey } from '../i18n/index.js';

/** Where a notice's words are in the catalogue (messages/errors.ts): `errors.notice.<code>`. */
const PREFIX = 'errors.notice.';

/**
 * Confirmations shown after a POST-redirect-GET. The redirect carries only a code, one the catalogue has words for
 * (`errors.notice.<code>`), so the query string can never put operator-visible text on a page; a page's confirmation
 * is its words, with no list of codes to keep beside them.
 */
export type NoticeCode = MessageKey extends infer Key ? (Key extends `errors.notice.${infer Code}` ? Code : never) : never;

/** Every notice code, in the catalogue's order. */
export const NOTICES = Object.keys(MESSAGES.en)
  .filter((key) => key.startsWith(PREFIX))
  .map((key) => key.slice(PREFIX.length) as NoticeCode);

const CODES: ReadonlySet<string> = new Set(NOTICES);

/** Whether `code` is a notice's: for a code a declared record kind names (pages/declared-record.page.ts). */
export function isNoticeCode(code: string): code is NoticeCode {
  return CODES.has(code);
}

/** The message of a notice. */
function noticeKey(code: NoticeCode): MessageKey {
  return `${PREFIX}${code}` as MessageKey;
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
