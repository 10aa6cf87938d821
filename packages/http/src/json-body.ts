import express, { type RequestHandler } from 'express';
import { AppError } from './app-error.js';
import { jsonProblem, verifyUtf8 } from './hostile-input.js';

export const MAX_BODY_BYTES = 64 * 1024;

const jsonParser = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true, verify: verifyUtf8 });

/**
 * Requires `Content-Type: application/json` (415 otherwise), parses at most 64 KiB (413 beyond), and
 * requires the body to be a JSON object (400) of storable text: UTF-8 bytes, no NUL, no unpaired surrogate,
 * at most 32 levels deep (400, before anything fingerprints or stores it). Requests without a body get an
 * empty object.
 */
export const jsonBody: RequestHandler = (req, res, next) => {
  const type = req.get('content-type');
  const hasBody = req.get('content-length') !== undefined || req.get('transfer-encoding') !== undefined;
  if (!type) {
    if (!hasBody || req.get('content-length') === '0') {
      req.body = {};
      next();
      return;
    }
    next(new AppError('unsupported_media_type', 'Send the body with Content-Type: application/json.'));
    return;
  }
  if (!/^application\/json\s*(;\s*charset\s*=\s*"?utf-8"?\s*)?$/i.test(type.trim())) {
    next(new AppError('unsupported_media_type', 'Send the body with Content-Type: application/json.'));
    return;
  }
  jsonParser(req, res, (error?: unknown) => {
    if (error) {
      next(error);
      return;
    }
    const body: unknown = req.body;
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      next(AppError.validation([{ field: '(body)', message: 'must be a JSON object' }], 'The request body must be a JSON object.'));
      return;
    }
    const problem = jsonProblem(body);
    if (problem) {
      next(AppError.validation([problem], 'The request body holds text that cannot be stored.'));
      return;
    }
    next();
  });
};
