import { type RequestHandler, type Router } from 'express';
import { parseRequest, type ReturnReasonCode } from '@kasa/contracts';
import { jsonBody, pathParam } from '@kasa/http';
import type { Request } from 'express';
import { internalRouter } from '../shared/internal-route.js';
import {
  simulateDepositApproval,
  simulateDepositExpiry,
  simulateDepositRejection,
  simulateTransfer,
  simulateWithdrawalStep,
  type SimulatedWithdrawalStep,
  type SimulatorCaller,
} from './simulator.use-case.js';
import type { KasaConfig } from '@kasa/config';

/** What these routes need of the ledger's deps (the composition root's LedgerDeps satisfies it). */
export type SandboxRoutesDeps = Parameters<typeof simulateTransfer>[0] & {
  config: KasaConfig;
};

/**
 * The sandbox's simulator behind the gateway, at the internal table's paths: the partner's own under the site
 * (docs/sandbox.md). The gateway has checked the body against its schema and the key's mode; the use cases check
 * again that the site is a sandbox and the record its own.
 */
export function sandboxRoutes(deps: SandboxRoutesDeps): Router {
  /** The envelope's key and request, and who asks. */
  const envelope = (req: Request): { caller: SimulatorCaller; request: Record<string, unknown> } => {
    const { apiKeyId, request } = parseRequest('sandboxEnvelope', req.body);
    return {
      caller: { siteId: pathParam(req, 'siteId'), apiKeyId, requestId: req.requestId },
      request: request,
    };
  };

  const transfer: RequestHandler = async (req, res) => {
    const { caller, request } = envelope(req);
    const body = parseRequest('simulateTransfer', request);
    res.status(201).json(await simulateTransfer(deps, caller, pathParam(req, 'intentId'), body));
  };
  const approveDeposit: RequestHandler = async (req, res) => {
    const { caller, request } = envelope(req);
    const body = parseRequest('simulateApproval', request);
    res.json(await simulateDepositApproval(deps, caller, pathParam(req, 'intentId'), body.amount));
  };
  const rejectDeposit: RequestHandler = async (req, res) => {
    const { caller, request } = envelope(req);
    const body = parseRequest('simulateRejection', request);
    res.json(
      await simulateDepositRejection(deps, caller, pathParam(req, 'intentId'), {
        ...(body.reason ? { reason: body.reason } : {}),
        ...(body.userReason ? { userReason: body.userReason } : {}),
      }),
    );
  };
  const expireDeposit: RequestHandler = async (req, res) => {
    const { caller } = envelope(req);
    res.json(await simulateDepositExpiry(deps, caller, pathParam(req, 'intentId')));
  };
  const withdrawalStep =
    (step: SimulatedWithdrawalStep): RequestHandler =>
    async (req, res) => {
      const { caller, request } = envelope(req);
      const input =
        step === 'return' ? parseRequest('simulateReturn', request) : step === 'reject' ? parseRequest('simulateRejection', request) : {};
      res.json(
        await simulateWithdrawalStep(deps, caller, pathParam(req, 'withdrawalId'), step, {
          ...('reason' in input && input.reason ? { reason: input.reason } : {}),
          // The schema's enum is RETURN_REASON_CODES' keys.
          ...('reasonCode' in input && input.reasonCode ? { reasonCode: input.reasonCode as ReturnReasonCode } : {}),
        }),
      );
    };

  return internalRouter(deps.config.internalToken, [
    { operation: 'simulateTransfer', handlers: [jsonBody, transfer] },
    { operation: 'simulateDepositApproval', handlers: [jsonBody, approveDeposit] },
    { operation: 'simulateDepositRejection', handlers: [jsonBody, rejectDeposit] },
    { operation: 'simulateDepositExpiry', handlers: [jsonBody, expireDeposit] },
    { operation: 'simulateWithdrawalApproval', handlers: [jsonBody, withdrawalStep('approve')] },
    { operation: 'simulateWithdrawalRejection', handlers: [jsonBody, withdrawalStep('reject')] },
    { operation: 'simulateWithdrawalSent', handlers: [jsonBody, withdrawalStep('send')] },
    { operation: 'simulateWithdrawalReturn', handlers: [jsonBody, withdrawalStep('return')] },
  ]);
}
