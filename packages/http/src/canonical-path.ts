import type { RequestHandler } from 'express';

const UUID_SEGMENT = /(?<=\/)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=\/|$)/gi;

/**
 * UUIDs are case-insensitive, and ids are stored lower-case: a path segment that is a UUID is lower-cased
 * before routing, so `/intents/ABCD…` finds the same record, writes the same audit entity and makes the
 * same replay fingerprint as `/intents/abcd…`. Only the path is touched, never the query.
 */
export const canonicalUuidPath: RequestHandler = (req, _res, next) => {
  const queryAt = req.url.indexOf('?');
  const path = queryAt < 0 ? req.url : req.url.slice(0, queryAt);
  const canonical = path.replace(UUID_SEGMENT, (id) => id.toLowerCase());
  if (canonical !== path) req.url = canonical + (queryAt < 0 ? '' : req.url.slice(queryAt));
  next();
};
