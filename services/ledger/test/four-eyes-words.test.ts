/**
 * `requireSecondPerson` names a kind's own acts in its refusals: a kind whose second person acknowledges rather than
 * applies is told so, and the refusals (the maker, the bootstrap token) stand whatever the words. The checks that read
 * operator accounts (a tie between the two) run against the database in balance-adjustments.test.ts.
 */
import { describe, expect, it } from '@jest/globals';
import type { Prisma } from '@kasa/db';
import { requireSecondPerson, type FourEyesDeps } from '../src/review/four-eyes.js';
import { BOOTSTRAP_OPERATOR_ID, type OperatorPrincipal } from '../src/shared/operator-principal.js';

// Neither refusal below reaches the operator accounts or the transaction: both are decided on the caller alone.
const deps = {} as Pick<FourEyesDeps, 'clock' | 'operators'>;
const tx = {} as Prisma.TransactionClient;
const maker = { operatorId: 'a5b1c1d2-0000-4000-8000-000000000001', email: 'ayse@kasa.test' };
const person = (operatorId: string): OperatorPrincipal => ({ operatorId, role: 'ADMIN', tokenId: 't', email: null });
const acknowledged = { made: 'wrote', decide: 'acknowledge', decided: 'acknowledged' };

async function refusal(caller: OperatorPrincipal, words?: typeof acknowledged): Promise<{ reason?: string; message: string }> {
  try {
    await requireSecondPerson(deps, tx, caller, maker, 'site note', words);
  } catch (error) {
    const { message, reason } = error as Error & { reason?: string };
    return { reason, message };
  }
  throw new Error('no refusal');
}

describe('requireSecondPerson', () => {
  it("refuses the record's maker in the kind's words", async () => {
    await expect(refusal(person(maker.operatorId), acknowledged)).resolves.toMatchObject({
      message: 'You wrote this site note; a different operator must acknowledge it (four-eyes). Nothing was changed.',
    });
  });

  it("refuses the bootstrap token in the kind's words, and says 'proposed' and 'apply' when a kind gives none", async () => {
    const bootstrap: OperatorPrincipal = { operatorId: BOOTSTRAP_OPERATOR_ID, role: 'ADMIN', tokenId: null, email: null };
    expect((await refusal(bootstrap, acknowledged)).message).toMatch(/^A site note is acknowledged by a second person/);
    expect((await refusal(person(maker.operatorId))).message).toMatch(/^You proposed this site note; a different operator must apply it/);
  });
});
