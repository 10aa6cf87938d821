/**
 * The ledger's folders depend one way (docs/architecture.md, The ledger's folders): no two folders import each other,
 * type-only imports included, read from the shipped tree as scripts/ledger-imports.mjs reads it.
 */
import { describe, expect, it } from '@jest/globals';
import { ledgerArrows, summary } from '../../scripts/ledger-imports.mjs';

describe("the ledger's folders", () => {
  it('have no pair that imports each other both ways', () => {
    const { twoWay, arrows } = summary(ledgerArrows());
    expect(arrows).toBeGreaterThan(50);
    expect(twoWay).toEqual([]);
  });

  it('see a planted import back the other way, a type-only one too', () => {
    // deposits/ is below bank-transfers/, which matches money onto deposits: deposits/ reads it through ports.
    const back = {
      path: 'deposits/planted.ts',
      text: "import type { BankTransferRepository } from '../bank-transfers/bank-transfer.repository.js';\n",
    };
    expect(summary(ledgerArrows([back])).twoWay).toEqual(['bank-transfers <-> deposits']);
  });
});
