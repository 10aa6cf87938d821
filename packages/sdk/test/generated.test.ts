/**
 * The committed src/generated/kasa-api.ts must be exactly what openapi-typescript makes from the contract today;
 * after a contract change, regenerate it with `npx tsx packages/sdk/scripts/generate.ts` (docs/sdk.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { generatedTypes } from '../scripts/generated-types.js';

describe('generated OpenAPI types', () => {
  it('match a fresh openapi-typescript generation from the OpenAPI document', async () => {
    const committed = readFileSync(new URL('../src/generated/kasa-api.ts', import.meta.url), 'utf8');
    const fresh = await generatedTypes();
    // A short message first: the full diff of two 1,800-line files is hard to read.
    if (committed !== fresh) {
      throw new Error('packages/sdk/src/generated/kasa-api.ts is stale: run `npx tsx packages/sdk/scripts/generate.ts` and commit it');
    }
    expect(committed).toBe(fresh);
    expect(committed).toContain('createDeposit: {');
  });
});
