/**
 * The console's markup helpers are @kasa/html, shared with the hosted deposit page: every interpolated value
 * is escaped unless it is SafeHtml, and URL attributes start with a literal or a checked SafeUrl. Re-exported
 * here so views and pages keep one short import.
 */
export { html, escapeHtml, trustedHtml, SafeHtml, SafeUrl, safeUrl, trySafeUrl, localUrl, pathSegment, type HtmlValue } from '@kasa/html';
