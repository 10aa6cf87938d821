/**
 * What `opsOperation` refuses at compile time (`npm run typecheck` checks this file; nothing runs it): a handler is
 * held to its operation's path parameters, body schema and documented response type, so each line marked
 * `@ts-expect-error` would stop compiling the day the typing let it through.
 */
import express from 'express';
import type { EventView, OpsResponse } from '@kasa/contracts';
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

// @ts-expect-error a handler gets no query: a list reads and parses `req.query` itself, as before
opsOperation(router, 'listSites')(async ({ query }) => ({ data: [], nextCursor: query ? null : null }));

const account = {
  id: '0b91c0c4-2d8e-4a55-9d3e-7d0c1f5b2a10',
  bankName: 'Ziraat',
  holderName: 'Kasa A.Ş.',
  iban: 'TR330006100519786457841326',
  accountNumber: null,
  branchCode: null,
  active: true,
};

// @ts-expect-error a receiving account's createdAt is ISO text: the row's Date, sent as it was, is not the contract's type
opsOperation(router, 'listReceivingAccounts')(async () => ({ data: [{ ...account, createdAt: new Date() }] }));

declare const flag: OpsResponse<'getRiskFlag'>;

// @ts-expect-error a risk flag's status is OPEN or CLOSED, not the text column's any string
opsOperation(router, 'getRiskFlag')(async () => ({ ...flag, status: flag.status as string }));

declare const storedEvent: EventView & { siteId: string };

// @ts-expect-error an event as stored (its type any text, its payload unknown JSON) is not the documented OpsEvent
opsOperation(router, 'opsRetryEventNow')(async () => storedEvent);

declare const event: OpsResponse<'opsGetEvent'>;

// @ts-expect-error an event's type is one of the registry's event types, not the text column's any string
opsOperation(router, 'opsGetEvent')(async () => ({ ...event, type: event.type as string }));

declare const destruction: OpsResponse<'listDestructionLog'>['data'][number];
const strayCause = { ...destruction, cause: destruction.cause as string };

// @ts-expect-error a destruction's cause is erasure_request or retention_expired, not the text column's any string
opsOperation(router, 'listDestructionLog')(async () => ({ data: [strayCause], nextCursor: null }));
