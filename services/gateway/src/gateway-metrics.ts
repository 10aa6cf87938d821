import type { RequestHandler } from 'express';
import { Counter, type Registry } from 'prom-client';
import { routeOf, trackRoute } from '@kasa/http';

/** Why a request was answered 429, from the policy its RateLimit headers name (docs/api.md, Rate limits). */
const REASONS: Record<string, string> = {
  '"default"': 'site_limit',
  '"invalid-key"': 'invalid_key',
};

/**
 * The gateway's own counters, read off each answer as the partner receives it (so they count exactly what
 * partners see, wherever in the gateway it was decided):
 * - `kasa_gateway_rate_limited_total{reason}`: 429s, `site_limit` (a key past its site's per-minute budget)
 *   or `invalid_key` (an address past its allowance of invalid API keys);
 * - `kasa_gateway_idempotent_replays_total{route}`: answers replayed for a reused Idempotency-Key
 *   (`Idempotent-Replayed: true`, from Redis or from the ledger's own record).
 * Labels are bounded: two reasons, and route templates. Mount after `requestId`, before the routes.
 */
export function gatewayMetrics(registry: Registry): RequestHandler {
  const rateLimited = new Counter({
    name: 'kasa_gateway_rate_limited_total',
    help: 'Requests refused 429 by reason: site_limit (the API key is past its site budget), invalid_key (too many invalid keys from the address)',
    labelNames: ['reason'],
    registers: [registry],
  });
  const replays = new Counter({
    name: 'kasa_gateway_idempotent_replays_total',
    help: 'Answers replayed for a reused Idempotency-Key, by route',
    labelNames: ['route'],
    registers: [registry],
  });
  for (const reason of Object.values(REASONS)) rateLimited.inc({ reason }, 0);
  return (req, res, next) => {
    trackRoute(req);
    res.once('finish', () => {
      if (res.statusCode === 429) {
        const policy = String(res.getHeader('RateLimit-Policy') ?? '').split(';')[0] ?? '';
        rateLimited.inc({ reason: REASONS[policy] ?? 'other' });
      }
      if (res.getHeader('Idempotent-Replayed') === 'true') replays.inc({ route: routeOf(req) });
    });
    next();
  };
}
