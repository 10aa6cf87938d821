import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '@kasa/contracts';
import { AppError } from '@kasa/http';

/** A position in a newest-first list: the last item's (createdAt, id). */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

/** What a cursor is bound to: the list, the site and the filters (not the page size). */
export interface CursorScope {
  list: string;
  siteId: string;
  filters: Record<string, unknown>;
}

function scopeHash(scope: CursorScope): string {
  return createHmac('sha256', 'cursor-scope').update(canonicalJson(scope)).digest('base64url').slice(0, 16);
}

/** Opaque base64url cursor, signed so a tampered one is refused, and bound to the list's filters. */
export class CursorCodec {
  constructor(private readonly key: string) {}

  private sign(payload: string): string {
    return createHmac('sha256', this.key).update(payload).digest('base64url').slice(0, 22);
  }

  encode(position: CursorPosition, scope: CursorScope): string {
    const payload = Buffer.from(JSON.stringify({ t: position.createdAt.toISOString(), i: position.id, s: scopeHash(scope) })).toString(
      'base64url',
    );
    return `${payload}.${this.sign(payload)}`;
  }

  decode(cursor: string, scope: CursorScope): CursorPosition {
    const invalid = AppError.validation(
      [{ field: 'cursor', message: 'is not a cursor this list issued; pass nextCursor back unchanged' }],
      'The cursor is not valid.',
    );
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length > 0) throw invalid;
    const expected = Buffer.from(this.sign(payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid;
    let parsed: { t?: unknown; i?: unknown; s?: unknown };
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof parsed;
    } catch {
      throw invalid;
    }
    if (parsed.s !== scopeHash(scope)) {
      throw AppError.validation(
        [{ field: 'cursor', message: 'was issued for other filters; repeat the same filters with a cursor' }],
        'The cursor does not match the filters.',
      );
    }
    const createdAt = new Date(String(parsed.t));
    if (typeof parsed.i !== 'string' || Number.isNaN(createdAt.getTime())) throw invalid;
    return { createdAt, id: parsed.i };
  }
}
