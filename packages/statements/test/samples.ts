import { readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import { StatementError } from '../src/index.js';

/** A hand-written sample from test/samples, as text. */
export function sample(name: string): string {
  return readFileSync(new URL(`./samples/${name}`, import.meta.url), 'utf8');
}

/** Runs `parse` and returns the StatementError it must throw (failing the test on anything else). */
export function statementError(parse: () => unknown): StatementError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(StatementError);
    return error as StatementError;
  }
  throw new Error('expected a StatementError, but the input parsed');
}
