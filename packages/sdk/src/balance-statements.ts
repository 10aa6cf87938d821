/**
 * Checking a signed daily balance statement offline (docs/api.md, Signed daily balance statements): the ed25519
 * signature over the statement's canonical JSON with Kasa's published key, and its arithmetic (each balance's
 * opening plus its movements, in order, gives every `balanceAfter` and the closing figure). Needs nothing but
 * node:crypto and the key, so an auditor can check a statement years after it was fetched.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import type { components } from './generated/kasa-api.js';

export type BalanceStatement = components['schemas']['BalanceStatement'];
export type BalanceStatementMovement = components['schemas']['BalanceStatementMovement'];
export type BalanceStatementKeys = components['schemas']['BalanceStatementKeys'];
/** One published key, as `balanceStatements.keys()` and docs/api.md give it. */
export type BalanceStatementKey = BalanceStatementKeys['keys'][number];

/** The `format` this SDK verifies. */
export const BALANCE_STATEMENT_FORMAT = 'kasa.balance-statement.v1';

/** Why a statement was refused: callers branch on `reason`, never on the message. */
export type BalanceStatementFailure = 'malformed' | 'wrong_key' | 'bad_signature' | 'totals_mismatch';

export class BalanceStatementVerificationError extends Error {
  constructor(
    readonly reason: BalanceStatementFailure,
    message: string,
  ) {
    super(message);
    this.name = 'BalanceStatementVerificationError';
  }
}

/**
 * A verifying key: a published key (`{keyId, publicKey}`, checked against the statement's `keyId`), the raw 32-byte
 * key in base64, or an SPKI PEM document. (Strings and plain objects only, so the types need no `@types/node`.)
 */
export type BalanceStatementPublicKey = BalanceStatementKey | Pick<BalanceStatementKey, 'keyId' | 'publicKey'> | string;

// The fixed DER header of an ed25519 public key in SPKI form (RFC 8410), before its 32 bytes.
const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const FIGURE = /^(0|-?[1-9][0-9]*)$/;
const AMOUNT = /^-?[1-9][0-9]*$/;

/**
 * Verifies a statement and returns it. `statement`: the parsed statement, or the response body as text.
 *
 * @throws BalanceStatementVerificationError when it must not be trusted: `bad_signature` (any byte of it changed, or
 * another key signed it), `wrong_key` (it names another key than the one given), `totals_mismatch` (the figures do
 * not add up), `malformed` (not a statement of this format).
 */
export function verifyBalanceStatement(statement: BalanceStatement | string, publicKey: BalanceStatementPublicKey): BalanceStatement {
  const parsed = parse(statement);
  const { signature } = parsed;
  if (typeof publicKey === 'object' && 'keyId' in publicKey && publicKey.keyId !== signature.keyId) {
    throw new BalanceStatementVerificationError('wrong_key', `signed with key ${signature.keyId}, not ${publicKey.keyId}`);
  }
  const { signature: _signature, ...signed } = parsed;
  const valid = verify(null, Buffer.from(canonicalJson(signed), 'utf8'), keyObject(publicKey), Buffer.from(signature.value, 'base64'));
  if (!valid) throw new BalanceStatementVerificationError('bad_signature', 'the signature does not match the statement and key');
  checkTotals(parsed);
  return parsed;
}

function parse(statement: BalanceStatement | string): BalanceStatement {
  let value: unknown = statement;
  if (typeof statement === 'string') {
    try {
      value = JSON.parse(statement);
    } catch {
      throw new BalanceStatementVerificationError('malformed', 'the statement is not JSON');
    }
  }
  const candidate = value as Partial<BalanceStatement> | null;
  if (
    candidate === null ||
    typeof candidate !== 'object' ||
    candidate.format !== BALANCE_STATEMENT_FORMAT ||
    !Array.isArray(candidate.movements) ||
    typeof candidate.signature?.value !== 'string' ||
    candidate.signature.algorithm !== 'ed25519'
  ) {
    throw new BalanceStatementVerificationError('malformed', `not a ${BALANCE_STATEMENT_FORMAT} statement signed with ed25519`);
  }
  return candidate as BalanceStatement;
}

/** Each balance: opening, then every movement of it in order, must give its `balanceAfter`, and the last the closing figure. */
function checkTotals(statement: BalanceStatement): void {
  const figure = (text: unknown, what: string, pattern = FIGURE): bigint => {
    if (typeof text !== 'string' || !pattern.test(text))
      throw new BalanceStatementVerificationError('totals_mismatch', `${what} is not a whole number of kuruş`);
    return BigInt(text);
  };
  const running = {
    available: figure(statement.opening?.available, 'opening.available'),
    reserved: figure(statement.opening?.reserved, 'opening.reserved'),
  };
  statement.movements.forEach((movement, index) => {
    if (movement.balance !== 'available' && movement.balance !== 'reserved') {
      throw new BalanceStatementVerificationError('totals_mismatch', `movements[${index}] names no balance`);
    }
    running[movement.balance] += figure(movement.amount, `movements[${index}].amount`, AMOUNT);
    if (running[movement.balance] !== figure(movement.balanceAfter, `movements[${index}].balanceAfter`)) {
      throw new BalanceStatementVerificationError(
        'totals_mismatch',
        `movements[${index}].balanceAfter does not follow from the ones before`,
      );
    }
  });
  for (const balance of ['available', 'reserved'] as const) {
    if (running[balance] !== figure(statement.closing?.[balance], `closing.${balance}`)) {
      throw new BalanceStatementVerificationError('totals_mismatch', `opening.${balance} plus its movements is not closing.${balance}`);
    }
  }
}

function keyObject(key: BalanceStatementPublicKey): KeyObject {
  try {
    if (typeof key === 'string' && key.includes('-----BEGIN')) return createPublicKey(key);
    const raw = typeof key === 'string' ? key : key.publicKey;
    const bytes = Buffer.from(raw, 'base64');
    if (bytes.length !== 32) throw new RangeError('an ed25519 public key is 32 bytes');
    return createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, bytes]), format: 'der', type: 'spki' });
  } catch (error) {
    throw new TypeError(`publicKey is not an ed25519 public key: ${(error as Error).message}`);
  }
}

/** JSON with object keys sorted at every depth and no spaces: the signed bytes (Kasa's `canonicalJson`). */
function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}
