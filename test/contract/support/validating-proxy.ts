/**
 * A validating proxy in front of a running service: every request is passed on unchanged, and every answer is
 * judged against an OpenAPI document by express-openapi-validator (its response validation: the route and the
 * status must be documented, the body must match that status's schema) before it is handed back. The proxy
 * also checks that the answer's Content-Type is one the document gives for that status.
 */
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';

export interface Judged {
  method: string;
  route: string;
  status: number;
}

export interface ValidatingProxy {
  url: string;
  /** What the validator or the Content-Type check refused, one line each. */
  violations: string[];
  /** Every answer that passed, by documented route. */
  judged: Judged[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

interface OpenApiRequest extends Request {
  openapi?: { openApiRoute?: string; schema?: { responses?: Record<string, { content?: Record<string, unknown> }> } };
}

export async function startValidatingProxy(document: object, upstream: string): Promise<ValidatingProxy> {
  const violations: string[] = [];
  const judged: Judged[] = [];
  const app = express();
  app.use(express.raw({ type: () => true, limit: '1mb' }));
  app.use(
    OpenApiValidator.middleware({
      // The validator dereferences the document in place; it gets its own copy.
      apiSpec: structuredClone(document) as never,
      validateRequests: false,
      validateResponses: true,
      validateSecurity: false,
    }),
  );
  app.use(async (req: OpenApiRequest, res: Response, next: NextFunction) => {
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers.set(name, value);
      }
      const body = Buffer.isBuffer(req.body) && req.body.length > 0 ? req.body : undefined;
      const answer = await fetch(`${upstream}${req.originalUrl}`, { method: req.method, headers, body });
      const text = await answer.text();
      const route = req.openapi?.openApiRoute ?? req.path;
      const contentType = answer.headers.get('content-type') ?? '';
      const documented = Object.keys(req.openapi?.schema?.responses?.[String(answer.status)]?.content ?? {});
      if (!documented.some((media) => contentType.split(';')[0]!.trim() === media)) {
        violations.push(`${req.method} ${route} ${answer.status}: Content-Type "${contentType}" is not one of [${documented.join(', ')}]`);
      }
      res.status(answer.status);
      for (const name of ['content-type', 'idempotent-replayed', 'retry-after']) {
        const value = answer.headers.get(name);
        if (value !== null) res.set(name, value);
      }
      // res.json is where the validator judges the answer: status, then body against that status's schema.
      res.json(text === '' ? undefined : JSON.parse(text));
      // A refused answer has been replaced by the error handler's 599 by now.
      if (res.statusCode === answer.status) judged.push({ method: req.method, route, status: answer.status });
    } catch (error) {
      next(error);
    }
  });
  app.use((error: { status?: number; message?: string }, req: Request, res: Response, _next: NextFunction) => {
    void _next;
    violations.push(`${req.method} ${req.originalUrl}: ${error.message ?? String(error)}`);
    if (!res.headersSent) res.status(599).json({ violation: error.message ?? String(error) });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    violations,
    judged,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
