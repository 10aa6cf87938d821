/**
 * The statement upload's `multipart/form-data` body (one file and a few text fields), read whole up to the
 * ops API's own limit and split here. It runs before the CSRF check, so the form's `_csrf` field is read
 * from the same body; every other console form stays urlencoded.
 */
import express, { type RequestHandler } from 'express';
import { OPS_ROUTES } from '@kasa/contracts';
import { AppError } from '@kasa/http';
import { t } from '../i18n/index.js';

/** The uploaded file, as the browser sent it. */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

const MAX_FILE = OPS_ROUTES.importStatement.rawBody.maxBytes;
const rawMultipart = express.raw({ type: 'multipart/form-data', limit: MAX_FILE + 64 * 1024 });

/**
 * Text fields into `req.body`, the first file into `res.locals.upload`; 413 past 16 MiB, 400 when unreadable (said in
 * the operator's language: the locale middleware runs before this one).
 */
export const multipartUpload: RequestHandler = (req, res, next) => {
  if (req.method !== 'POST') return next();
  rawMultipart(req, res, (error?: unknown) => {
    if ((error as { type?: string } | undefined)?.type === 'entity.too.large') {
      return next(new AppError('payload_too_large', t('money.upload.tooLarge', { size: MAX_FILE / 1024 / 1024 })));
    }
    if (error) return next(error);
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(req.get('content-type') ?? '');
    if (!Buffer.isBuffer(req.body) || !boundary) return next(new AppError('validation_failed', t('money.upload.unreadable')));
    const parts = splitParts(req.body, `--${boundary[1] ?? boundary[2]}`);
    if (!parts) return next(new AppError('validation_failed', t('money.upload.unreadable')));
    const fields: Record<string, string> = {};
    for (const part of parts) {
      if (part.filename !== null) {
        if (!res.locals.upload && part.filename) res.locals.upload = { filename: part.filename, bytes: part.body } satisfies UploadedFile;
      } else if (!(part.name in fields)) fields[part.name] = part.body.toString('utf8');
    }
    req.body = fields;
    next();
  });
};

interface Part {
  name: string;
  filename: string | null;
  body: Buffer;
}

/** The parts between `delimiter` lines (RFC 7578), or null when the body is not such a form. */
function splitParts(body: Buffer, delimiter: string): Part[] | null {
  const parts: Part[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') return parts;
    const next = body.indexOf(`\r\n${delimiter}`, start);
    if (next < 0) return null;
    const part = body.subarray(start + 2, next); // after the CRLF ending the delimiter line
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) return null;
    const headers = part.subarray(0, headerEnd).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(headers)?.[0] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return null;
    const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null;
    parts.push({ name, filename, body: part.subarray(headerEnd + 4) });
    at = next + 2;
  }
}
