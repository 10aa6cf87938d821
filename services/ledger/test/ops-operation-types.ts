/**
 * What `opsOperation` refuses at compile time (`npm run typecheck` checks this file; nothing runs it): a handler is
 * held to its operation's path parameters, body schema and documented response type, so each line marked
 * `@ts-expect-error` would stop compiling the day the typing let it through.
 */
import express from 'express';
import { opsOperation } from '../src/shared/ops-route.js';

const router = express.Router();
const decision = {
  withdrawalId: '6f1c6a52-6d8e-4a55-9d3e-7d0c1f5b2a10',
  status: 'APPROVED',
};

// @ts-expect-error a decision must answer the whole documented OpsWithdrawalDecision, not a part of it
opsOperation(router, 'approveWithdrawal')(async () => decision);

// @ts-expect-error the path of approveWithdrawal has no :intentId
opsOperation(router, 'approveWithdrawal')(async ({ params }) => ({ ...decision, id: params.intentId }));

// @ts-expect-error rejectWithdrawal's body (schema `reject`) has `reason`, not `why`
opsOperation(router, 'rejectWithdrawal')(async ({ body }) => ({ ...decision, why: body.why }));

// @ts-expect-error a record's currency is the contract's 'TRY', not any text
opsOperation(router, 'opsGetIntent')(async () => ({ currency: 'USD' as string }) as { currency: string } & Record<string, never>);
