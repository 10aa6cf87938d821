import type { BalanceAdjustment, Prisma } from '@kasa/db';
import { AppError } from '@kasa/http';
import { Postings } from '../journal/accounts.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import { requireStepUp, type StepUpDeps } from '../operators/second-factor.guard.js';
import { approvalBy, isNoPerson, requireSecondPerson, type Approval, type FourEyesDeps } from '../review/four-eyes.js';
import { commitTransition, runTransition, type Transition, type TransitionDeps } from '../review/transition.js';
import { generateReferenceNo } from '../site-records/reference-no.js';
import { writeAudit } from '../shared/audit.repository.js';
import { actorOf } from '../shared/operator-principal.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { ensureInScope } from '../shared/site-scope.js';
import { isUniqueViolation } from '../shared/unique-violation.js';
import type { SiteRepository } from '../sites/site.repository.js';
import { assertBalanceAdjustmentAction, type BalanceAdjustmentAction } from './balance-adjustment.states.js';
import type { BalanceAdjustmentRepository } from './balance-adjustment.repository.js';
import { toOpsBalanceAdjustment, type OpsBalanceAdjustment } from './balance-adjustment.views.js';

/**
 * What proposing and deciding balance adjustments needs: the transition's database, publisher and logger, the rows, the
 * site lookup, the journal, and the four-eyes (who is a second person) and step-up rules.
 */
export interface BalanceAdjustmentDeps extends TransitionDeps, StepUpDeps {
  operators: FourEyesDeps['operators'];
  sites: Pick<SiteRepository, 'lock'>;
  balanceAdjustments: BalanceAdjustmentRepository;
  journal: JournalRepository;
}

/** What an admin asks for: the direction, the amount (kuruş) and why. */
export interface AdjustmentProposal {
  direction: 'credit' | 'debit';
  amount: bigint;
  reason: string;
}

const NOT_FOUND = 'No balance adjustment with this id.';
// A reference drawn twice (1 in billions) fails the insert; the proposal is tried again with a fresh one, a few times.
const REFERENCE_ATTEMPTS = 3;

/**
 * Proposes an adjustment of a site's available balance (PENDING_REVIEW): nothing is posted until a second person applies
 * it. Proposed by a person: the bootstrap token, which is configuration, cannot be one of the two (409
 * `second_approver_required`). The site must exist and be in the operator's scope (404 otherwise). Audited with the
 * amount, direction and reason; logged without the reason.
 */
export async function proposeBalanceAdjustment(
  deps: BalanceAdjustmentDeps,
  request: OperatorRequest,
  siteId: string,
  proposal: AdjustmentProposal,
): Promise<OpsBalanceAdjustment> {
  const { caller } = request;
  if (isNoPerson(caller)) {
    throw AppError.conflict(
      'second_approver_required',
      'A balance adjustment is proposed and applied by two people with operator accounts; the bootstrap token is ' +
        'configuration, not a person. Log in as an operator to propose it. Nothing was changed.',
    );
  }
  ensureInScope(caller, siteId, 'No site with this id.');
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await commitTransition(deps, request, async (tx) => {
        // The site's row lock makes proposals on one site one after another, so a form sent twice cannot slip two
        // identical proposals past the check below.
        if (!(await deps.sites.lock(tx, siteId))) throw new AppError('not_found', 'No site with this id.');
        const asked = {
          siteId,
          direction: proposal.direction === 'credit' ? ('CREDIT' as const) : ('DEBIT' as const),
          amount: proposal.amount,
          reason: proposal.reason.trim(),
        };
        const twin = await deps.balanceAdjustments.findWaitingTwin(tx, asked);
        if (twin) {
          throw AppError.conflict(
            'duplicate_adjustment',
            `${twin.referenceNo}, proposed by ${twin.proposedByEmail ?? twin.proposedByOperatorId}, is the same adjustment (site, ` +
              'direction, amount and reason) and is still waiting for its second admin; nothing was proposed. Decide that ' +
              'one, or give this one its own reason if both are meant.',
          );
        }
        const created = await deps.balanceAdjustments.create(tx, {
          ...asked,
          referenceNo: generateReferenceNo('adjustment'),
          proposedByOperatorId: caller.operatorId,
          proposedByEmail: caller.email,
        });
        await writeAudit(tx, {
          actor: actorOf(caller),
          action: 'BALANCE_ADJUSTMENT.PROPOSED',
          entityType: 'balance_adjustment',
          entityId: created.id,
          siteId,
          metadata: {
            referenceNo: created.referenceNo,
            direction: proposal.direction,
            amount: created.amount.toString(),
            reason: created.reason,
          },
        });
        return {
          result: toOpsBalanceAdjustment(created),
          step: { message: 'balance adjustment proposed', fields: fieldsOf(created, caller.operatorId) },
          events: [],
        };
      });
    } catch (error) {
      if (attempt < REFERENCE_ATTEMPTS && isUniqueViolation(error, 'reference_no')) continue;
      throw error;
    }
  }
}

/** The log line's fields: never the reason (free text) nor an email. */
const fieldsOf = (row: BalanceAdjustment, operatorId: string) => ({
  adjustmentId: row.id,
  siteId: row.siteId,
  referenceNo: row.referenceNo,
  direction: row.direction,
  amount: row.amount.toString(),
  status: row.status,
  operatorId,
});

interface Step {
  action: BalanceAdjustmentAction;
  audit: string;
  log: string;
  changes(decider: Approval): Prisma.BalanceAdjustmentUpdateManyMutationInput;
  /** Applying posts to the site's journal; rejecting posts nothing. */
  posts?: true;
  metadata?: Record<string, string>;
}

interface Decision {
  to: string;
  decider: Approval;
}

/**
 * An adjustment's decision on the one transition recipe (review/transition.ts): lock, the state table, for applying the
 * step-up and the second person (never the proposer), one conditional update, the journal posting (a debit refused past
 * the available balance), the audit entry. No partner event: the partner sees the movement on its balance.
 */
function transition(deps: BalanceAdjustmentDeps, request: OperatorRequest, adjustmentId: string, step: Step) {
  return runTransition(deps, request, adjustmentId, {
    entityType: 'balance_adjustment',
    notFound: NOT_FOUND,
    lock: (tx) => deps.balanceAdjustments.lock(tx, adjustmentId),
    siteOf: (row) => row.siteId,
    // Step-up on the amount as locked (docs/operations.md, Step-up).
    guard: (_tx, current) => (step.posts ? requireStepUp(deps, request.caller, current.amount) : undefined),
    decide: async (tx, current): Promise<Decision> => {
      const to = assertBalanceAdjustmentAction(step.action, current.status);
      const decider: Approval = step.posts
        ? await requireSecondPerson(
            deps,
            tx,
            request.caller,
            { operatorId: current.proposedByOperatorId, email: current.proposedByEmail },
            'balance adjustment',
          )
        : approvalBy(deps, request.caller);
      return { to, decider };
    },
    update: (tx, current, decision) =>
      deps.balanceAdjustments.update(tx, adjustmentId, current.status, {
        status: decision.to as BalanceAdjustment['status'],
        decidedByOperatorId: decision.decider.operatorId,
        decidedByEmail: decision.decider.email,
        ...step.changes(decision.decider),
      }),
    changedMeanwhile: 'The balance adjustment changed meanwhile; nothing was changed.',
    post: async (tx, { current }, alongside) => {
      if (!step.posts) return null;
      const credit = current.direction === 'CREDIT';
      const posting = (credit ? Postings.adjustmentCredited : Postings.adjustmentDebited)(current.siteId, current.id, current.amount);
      const posted = await deps.journal.post(tx, posting, credit ? undefined : 'site_available', alongside);
      if (posted.ok) return posted.transactionId;
      const available = (-posted.balance).toString();
      throw AppError.conflict(
        'insufficient_balance',
        `The site's available balance (${available}) is less than the adjustment's debit (${current.amount}); nothing was changed.`,
        [{ field: 'amount', message: `exceeds the available balance of ${available}` }],
      );
    },
    audit: ({ current, decision, updated, journalTransactionId }) => ({
      action: step.audit,
      siteId: updated.siteId,
      metadata: {
        from: current.status,
        to: decision.to,
        referenceNo: current.referenceNo,
        direction: current.direction === 'CREDIT' ? 'credit' : 'debit',
        amount: current.amount.toString(),
        journalTransactionId,
        proposedBy: current.proposedByEmail ?? current.proposedByOperatorId,
        ...step.metadata,
      },
    }),
    log: ({ updated, journalTransactionId }) => ({
      message: step.log,
      fields: { ...fieldsOf(updated, request.caller.operatorId), journalTransactionId },
    }),
    result: ({ updated }) => toOpsBalanceAdjustment(updated),
  } satisfies Transition<BalanceAdjustment, Decision, OpsBalanceAdjustment>);
}

/**
 * PENDING_REVIEW -> APPLIED by a second person: posts the adjustment to the site's journal (credit: adjustments ->
 * site_available; debit: site_available -> adjustments, 409 `insufficient_balance` past the available balance).
 */
export function approveBalanceAdjustment(deps: BalanceAdjustmentDeps, request: OperatorRequest, adjustmentId: string) {
  return transition(deps, request, adjustmentId, {
    action: 'approve',
    audit: 'BALANCE_ADJUSTMENT.APPLIED',
    log: 'balance adjustment applied',
    posts: true,
    changes: (decider) => ({ appliedAt: new Date(decider.at) }),
  });
}

/** PENDING_REVIEW -> REJECTED: nothing is posted; the proposer may withdraw their own proposal this way. */
export function rejectBalanceAdjustment(deps: BalanceAdjustmentDeps, request: OperatorRequest, adjustmentId: string, reason: string) {
  return transition(deps, request, adjustmentId, {
    action: 'reject',
    audit: 'BALANCE_ADJUSTMENT.REJECTED',
    log: 'balance adjustment rejected',
    changes: (decider) => ({ rejectedAt: new Date(decider.at), rejectedReason: reason.trim() }),
    metadata: { reason: reason.trim() },
  });
}
