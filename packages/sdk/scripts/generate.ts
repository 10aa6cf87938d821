/**
 * Writes src/generated/kasa-api.ts: the types openapi-typescript generates from the partner API's OpenAPI
 * document (packages/contracts). Run after changing the contract: `npx tsx packages/sdk/scripts/generate.ts`;
 * packages/sdk/test/generated.test.ts fails while the committed file differs from a fresh generation.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedTypes } from './generated-types.js';

const target = fileURLToPath(new URL('../src/generated/kasa-api.ts', import.meta.url));
writeFileSync(target, await generatedTypes());
process.stdout.write(`wrote ${target}\n`);
