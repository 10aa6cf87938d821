import express, { type Router } from 'express';
import { AppError, pathParam } from '@kasa/http';
import { foundOr404, isUuid } from '../shared/http-guards.js';
import { opsOperation, opsRoute } from '../shared/ops-route.js';
import { operatorRequestOf } from '../shared/request-context.js';
import { createPayoutBatch, payoutBatchFile, toOpsPayoutBatch, toOpsPayoutBatchDetail } from './payout-batch.use-case.js';
import type { Clock } from '../shared/clock.js';
import type { OperatorRepository } from '../operators/operator.repository.js';
import type { PayoutBatchRepository } from './payout-batch.repository.js';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type PayoutsOpsRoutesDeps = Parameters<typeof createPayoutBatch>[0] & {
  clock: Clock;
  operators: OperatorRepository;
  payoutBatches: PayoutBatchRepository;
};

/** Room for the most payouts one batch may name (5,000 withdrawal ids of 39 bytes each in JSON), beyond the usual 64 KiB. */
const BATCH_BODY_BYTES = 256 * 1024;

/** The e-mails of the operators who created `batches` (the bootstrap token's `bootstrap` is no operator). */
function creatorEmails(deps: PayoutsOpsRoutesDeps, batches: ReadonlyArray<{ createdBy: string }>): Promise<Map<string, string>> {
  return deps.operators.emailsOf([...new Set(batches.map((batch) => batch.createdBy).filter(isUuid))]);
}

/** Payout batches (`/ops/v1/payout-batches`): approved payouts gathered into a file for the bank; any operator. */
export function payoutOpsRoutes(deps: PayoutsOpsRoutesDeps): Router {
  const router = express.Router();

  opsOperation(router, 'createPayoutBatch', { maxBodyBytes: BATCH_BODY_BYTES })(async ({ body }, req, res) =>
    createPayoutBatch(deps, operatorRequestOf(req, res), body ?? {}),
  );

  opsOperation(
    router,
    'listPayoutBatches',
  )(async () => {
    const batches = await deps.payoutBatches.list();
    const emails = await creatorEmails(deps, batches);
    return { data: batches.map((batch) => toOpsPayoutBatch(batch, emails)) };
  });

  opsOperation(
    router,
    'getPayoutBatch',
  )(async ({ params }) => {
    const batch = await foundOr404(params.batchId, (id) => deps.payoutBatches.find(id), 'No payout batch with this id.');
    return toOpsPayoutBatchDetail(batch, await creatorEmails(deps, [batch]));
  });

  opsRoute(router, 'getPayoutBatchFile', async (req, res) => {
    const format = req.query.format ?? 'pain.001';
    if (format !== 'pain.001' && format !== 'csv') {
      throw AppError.validation([{ field: 'format', message: 'must be pain.001 or csv' }]);
    }
    const file = await payoutBatchFile(deps, pathParam(req, 'batchId'), format, deps.clock.now());
    res.type(file.contentType).attachment(file.filename).send(file.body);
  });

  return router;
}
