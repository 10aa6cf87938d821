import { readFileSync } from 'node:fs';
import { expect } from '@jest/globals';
import { ScreeningListError } from '../src/index.js';

/** A file from test/samples, as text (a BOM kept, as a file on disk has it). */
export function sample(name: string): string {
  return readFileSync(new URL(`./samples/${name}`, import.meta.url), 'utf8');
}

/** A file from test/samples, as bytes. */
export function sampleBytes(name: string): Buffer {
  return readFileSync(new URL(`./samples/${name}`, import.meta.url));
}

/** Runs `parse` and returns the ScreeningListError it must throw (failing the test on anything else). */
export function listError(parse: () => unknown): ScreeningListError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ScreeningListError);
    return error as ScreeningListError;
  }
  throw new Error('expected a ScreeningListError, but the input parsed');
}
