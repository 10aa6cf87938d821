import express, { type RequestHandler } from 'express';
import { AppError } from './app-error.js';
import { jsonProblem, verifyUtf8 } from './hostile-input.js';

export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Requires `Content-Type: application/json` (415 otherwise), parses at most 64 KiB (413 beyond), and
 * requires the body to be a JSON object (400) of storable text: UTF-8 bytes, no NUL, no unpaired surrogate,
 * at most 32 levels deep (400, before anything fingerprints or stores it). Requests without a body get an
 * empty object.
 */
export const jsonBody: RequestHandler = jsonBodyOf(MAX_BODY_BYTES);

/** {@link jsonBody} with a route's own limit (413 beyond `maxBytes`), for a route whose bodies are larger by nature. */
export function jsonBodyOf(maxBytes: number): RequestHandler {
  const jsonParser = express.json({ limit: maxBytes, strict: false, type: () => true, verify: verifyUtf8 });
  return (req, res, next) => {
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
      if (error && typeof error === 'object' && (error as { type?: unknown }).type === 'entity.too.large') {
        next(new AppError('payload_too_large', `The request body is larger than ${sizeText(maxBytes)}.`));
        return;
      }
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
}

/** 65536 -> `64 KiB`, 1048576 -> `1 MiB`. */
function sizeText(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}
