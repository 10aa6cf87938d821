import type { RequestHandler } from 'express';
import { LIST_FILTERS_INVALID, parseRequest } from '@kasa/contracts';
import { AppError, pathParam } from '@kasa/http';
import type { CreateCommand, Idempotent } from './create-record.js';
import type { CursorCodec } from '../shared/cursor.js';
import { lookupId } from '../shared/http-guards.js';
import { listPage, type ListQuery, type ListSource } from '../shared/partner-list.use-case.js';

// The partner API's routes over a site's records (deposit intents, withdrawals) behind the gateway, at
// `/internal/v1/sites/:siteId/...`: every read is scoped by the site id in the path.

/**
 * `POST` of a partner create: the gateway's envelope (idempotency key, body fingerprint), the record's own
 * body checked by `parse`, then `create`; 201 with `Idempotent-Replayed` telling whether the key had already
 * produced the record.
 */
export function createRecordRoute<Body>(
  parse: (request: unknown) => Body,
  create: (command: CreateCommand<Body>) => Promise<Idempotent<unknown>>,
): RequestHandler {
  return async (req, res) => {
    const { idempotencyKey, fingerprint, request, answeredBefore } = parseRequest('createEnvelope', req.body);
    const body = parse(request);
    const siteId = pathParam(req, 'siteId');
    const result = await create({ siteId, idempotencyKey, fingerprint, answeredBefore, body, requestId: req.requestId });
    res.status(201).set('Idempotent-Replayed', String(result.replayed)).json(result.body);
  };
}

/** `GET` of one record by the site id and the record id (path parameter `idParam`); another site's record is 404 like a missing one. */
export function findRecordRoute<Row>(
  idParam: string,
  find: (siteId: string, id: string) => Promise<Row | null>,
  toView: (row: Row) => unknown,
  notFound: string,
): RequestHandler {
  return async (req, res) => {
    const row = await find(pathParam(req, 'siteId'), lookupId(pathParam(req, idParam)));
    if (!row) throw new AppError('not_found', notFound);
    res.json(toView(row));
  };
}

// One parser per partner list-filter schema: parseRequest types a query by the schema's literal name.
const QUERY_PARSERS = {
  listIntents: (query: unknown): ListQuery => parseRequest('listIntents', query, LIST_FILTERS_INVALID),
  listWithdrawals: (query: unknown): ListQuery => parseRequest('listWithdrawals', query, LIST_FILTERS_INVALID),
};

/** `GET` of a partner list: the query checked with `schema`, then one newest-first page of the site's records. */
export function listRecordsRoute<Row extends { createdAt: Date; id: string }, Item>(
  cursors: CursorCodec,
  schema: keyof typeof QUERY_PARSERS,
  source: ListSource<Row, Item>,
): RequestHandler {
  return async (req, res) => {
    const query = QUERY_PARSERS[schema](req.query);
    res.json(await listPage(source, cursors, pathParam(req, 'siteId'), query));
  };
}
