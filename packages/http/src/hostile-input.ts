import { isUtf8 } from 'node:buffer';
import type { RequestHandler } from 'express';
import type { FieldError } from '@kasa/contracts';
import { AppError } from './app-error.js';

/** Deeper JSON than this is no request any endpoint takes; refusing it bounds the work of walking it. */
export const MAX_JSON_DEPTH = 32;

// NUL cannot be stored in a PostgreSQL text column, and a lone surrogate cannot be encoded as UTF-8 (it
// would silently turn into U+FFFD, so two different requests would look alike).
// eslint-disable-next-line no-control-regex -- the control character is what this looks for
const NUL = /\u0000/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why a string cannot be taken as text, or null when it can. */
export function textProblem(value: string): string | null {
  if (NUL.test(value)) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(value)) return 'must be valid Unicode (it has an unpaired surrogate)';
  return null;
}

/**
 * The first problem in a parsed JSON value: a string (key or value) that is not storable text, or nesting
 * deeper than {@link MAX_JSON_DEPTH}. Walks with an explicit stack, so no input can exhaust the call stack.
 */
export function jsonProblem(root: unknown): FieldError | null {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: root, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    const field = path || '(body)';
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { field, message: problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field, message: `nests deeper than ${MAX_JSON_DEPTH} levels` };
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) return { field: '(body)', message: `has a field name that ${keyProblem}` };
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/** Body-parser's `verify` hook: the raw bytes must be UTF-8 before anything decodes, parses or fingerprints them. */
export function verifyUtf8(_req: unknown, _res: unknown, buffer: Buffer): void {
  if (!isUtf8(buffer)) {
    throw AppError.validation([{ field: '(body)', message: 'must be UTF-8 encoded' }], 'The request body is not valid UTF-8.');
  }
}

function decoded(component: string): string | null {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/**
 * Refuses, before any route runs, a URL whose path or query does not decode to storable text: malformed
 * percent-escapes, bytes that are not UTF-8, NUL. Routes then only ever see clean strings.
 */
export const rejectHostileUrl: RequestHandler = (req, _res, next) => {
  const url = req.originalUrl;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const pathText = decoded(path);
  if (pathText === null || textProblem(pathText)) {
    next(
      AppError.validation(
        [{ field: '(path)', message: 'must be valid percent-encoded UTF-8 without NUL' }],
        'The request path cannot be read.',
      ),
    );
    return;
  }
  if (queryAt >= 0) {
    for (const part of url.slice(queryAt + 1).split('&')) {
      const [rawName = '', ...rest] = part.split('=');
      const name = decoded(rawName);
      const value = decoded(rest.join('='));
      if (name === null || value === null || textProblem(name) || textProblem(value)) {
        const field = name && !textProblem(name) ? name : '(query)';
        next(
          AppError.validation([{ field, message: 'must be valid percent-encoded UTF-8 without NUL' }], 'The query string cannot be read.'),
        );
        return;
      }
    }
  }
  next();
};

/**
 * `Cache-Control: no-store` on every answer: API answers carry secrets (keys, tokens, signed deposit URLs)
 * and per-site data that no browser, proxy or CDN may keep.
 */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
