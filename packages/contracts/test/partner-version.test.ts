/**
 * The partner API's version is one fact: PARTNER_API_VERSION is the OpenAPI document's `info.version` and the newest
 * heading of docs/partner-changelog.md, so the document never names a version the changelog does not describe.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument, PARTNER_API_VERSION } from '../src/index.js';

const changelog = readFileSync(fileURLToPath(new URL('../../../docs/partner-changelog.md', import.meta.url)), 'utf8');
const versions = [...changelog.matchAll(/^## (\S+)\s*$/gm)].map((match) => match[1]);

describe('the partner API version', () => {
  it('is the newest heading of the partner changelog', () => {
    expect(versions[0]).toBe(PARTNER_API_VERSION);
  });

  it("is the OpenAPI document's info.version", () => {
    expect(buildOpenApiDocument('https://api.kasa.example').info.version).toBe(PARTNER_API_VERSION);
  });

  it('lists the changelog newest first, each heading a semantic version', () => {
    expect(versions.length).toBeGreaterThan(0);
    for (const version of versions) expect(version).toMatch(/^\d+\.\d+\.\d+$/);
    const order = (v: string) => v.split('.').map(Number) as [number, number, number];
    const sorted = [...versions].sort((a, b) => {
      const [x, y] = [order(a!), order(b!)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2];
    });
    expect(versions).toEqual(sorted);
  });
});
