/**
 * @kasa/html: the one way Kasa's server-rendered pages (the operator console and the hosted deposit page)
 * produce markup. Every interpolated value is escaped unless it is already {@link SafeHtml}, and a link,
 * script or form target can only be a literal or a checked {@link SafeUrl}, so nothing a partner, a bank
 * feed or an operator typed can become markup or a `javascript:` link.
 */
export { html, type HtmlValue } from './html.js';
export { SafeHtml, escapeHtml, trustedHtml } from './safe-html.js';
export { SafeUrl, safeUrl, trySafeUrl, localUrl, pathSegment } from './safe-url.js';
export { preferredLanguage } from './language.js';
