/**
 * Where the hosted page links back to: https, or http only to the user's own machine (local development; the
 * ledger refuses that in production). Only RFC 3986 characters, as for webhook URLs: what the browser follows
 * is exactly what was stored, and no quote, angle bracket, space or control character reaches the page.
 */
export const returnUrl = {
  type: 'string',
  maxLength: 2048,
  pattern:
    "^(https://[A-Za-z0-9.-]+|http://(localhost|127\\.0\\.0\\.1))(:[0-9]{1,5})?([/?#]([A-Za-z0-9._~:/?#\\[\\]@!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)?$",
  'x-message':
    'must be an https URL without user:password@ (http only for localhost or 127.0.0.1 outside production), of RFC 3986 characters, at most 2048 characters',
  // The description is what the SDK's generated types carry (packages/sdk/src/generated): changing it means regenerating them.
  description: "Optional: the hosted deposit page's link back to your site. https, no user:password@; at most 2048 characters.",
} as const;
