import type { Request, RequestHandler, Response, Router } from 'express';
import { OPS_ROUTES, parseRequest, type OpsInput, type OpsOperationId, type OpsOperationSpec, type OpsResponse } from '@kasa/contracts';
import { jsonBody, jsonBodyOf, pathParam } from '@kasa/http';
import { requireRole } from './operator-principal.js';

const GUARDS: Record<(typeof OPS_ROUTES)[OpsOperationId]['role'], RequestHandler[]> = {
  PUBLIC: [],
  // Any operator: refuses (401) a request no operator was resolved for, should the router be mounted before the auth guard.
  REVIEWER: [requireRole('ADMIN', 'REVIEWER')],
  ADMIN: [requireRole('ADMIN')],
  // A bank connector's machine account, or an admin; a connector is refused (403) by every other route's guard above.
  CONNECTOR_OR_ADMIN: [requireRole('CONNECTOR', 'ADMIN')],
};

/**
 * Registers one ops operation's handlers at the method and path the route table (@kasa/contracts, ops-routes.ts)
 * gives it, behind the table's role, so a route's path and role are declared only there.
 */
export function opsRoute(router: Router, operationId: OpsOperationId, ...handlers: RequestHandler[]): void {
  const { method, path, role } = OPS_ROUTES[operationId];
  const verb = ({ GET: 'get', POST: 'post', PATCH: 'patch', DELETE: 'delete' } as const)[method];
  router[verb](path, [...GUARDS[role], ...handlers]);
}

/** What a typed handler receives: the operation's path parameters and its body, parsed by the table's schema. */
export type OpsHandlerInput<Op extends OpsOperationId> = Omit<OpsInput<Op>, 'headers' | 'query'>;

/** A typed handler of one operation: it must answer the operation's documented response type (at once, or later). */
export type OpsHandler<Op extends OpsOperationId> = (
  input: OpsHandlerInput<Op>,
  req: Request,
  res: Response,
) => OpsResponse<Op> | Promise<OpsResponse<Op>>;

/** What an operation may set beside the table: how its JSON body is read. */
export interface OpsOperationOptions {
  /** The body's own limit (413 beyond it), for a body larger or smaller by nature than the usual 64 KiB. */
  maxBodyBytes?: number;
  /** The problem's summary when the body fails its schema (`The scope is not valid; nothing was changed.`). */
  invalidBody?: string;
}

/**
 * A JSON operation of the ops API with a typed handler: the path parameters are read and the body is parsed by the
 * schema the table names for it before the handler runs; the handler must return the operation's documented
 * response type (OpsResponse, from its response schema), which is sent with the table's success status. The request
 * and response stay at hand (`operatorRequestOf`, a query parsed from `req.query`). An operation that answers a file,
 * a CSV export, a status or header the table does not fix, or takes a raw body keeps {@link opsRoute}.
 */
export function opsOperation<Op extends OpsOperationId>(
  router: Router,
  operationId: Op,
  options: OpsOperationOptions = {},
): (handle: OpsHandler<Op>) => void {
  // Curried so that the operation alone fixes `Op` before the handler is checked against it: checked together, the
  // compiler weighs the handler against every operation's types at once and gives up.
  return (handle) => registerOperation(router, operationId, options, handle as (input: unknown, req: Request, res: Response) => unknown);
}

function registerOperation(
  router: Router,
  operationId: OpsOperationId,
  options: OpsOperationOptions,
  handle: (input: unknown, req: Request, res: Response) => unknown,
): void {
  const spec: OpsOperationSpec = OPS_ROUTES[operationId];
  const names = [...spec.path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  const parse = parseRequest as (name: string, data: unknown, detail?: string) => unknown;
  const answer: RequestHandler = async (req, res) => {
    const input: Record<string, unknown> = {};
    if (names.length > 0) input.params = Object.fromEntries(names.map((name) => [name, pathParam(req, name)]));
    if (spec.body) input.body = parse(spec.body.schema, req.body, options.invalidBody);
    const result = await handle(input, req, res);
    res.status(Number(spec.status ?? '200')).json(result);
  };
  // An operation that documents 415 reads a JSON body, even one whose fields it ignores: a malformed body is refused.
  const readsJson = spec.body !== undefined || (spec.errors as readonly string[]).includes('415');
  const body = options.maxBodyBytes === undefined ? jsonBody : jsonBodyOf(options.maxBodyBytes);
  opsRoute(router, operationId, ...(readsJson ? [body, answer] : [answer]));
}
