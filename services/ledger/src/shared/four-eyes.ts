import type { Site } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { OperatorPrincipal } from '../operators/operator-principal.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { Clock } from './clock.js';

/**
 * Four-eyes approval of payouts (docs/operations.md, Four-eyes): a withdrawal or a return to a sender above its
 * threshold (the site's `dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) moves only when two different operators
 * approved it. The first approval is recorded on the record (`approvals`), which stays in review; it stands for
 * DUAL_APPROVAL_WINDOW_SECONDS, then expires and the payout needs two approvals again.
 */

/** One operator's approval as the record keeps it. */
export interface Approval {
  operatorId: string;
  email: string | null;
  at: string;
}

export interface FourEyesDeps {
  clock: Clock;
  config: { dualApprovalAboveKurus: bigint; dualApprovalWindowSeconds: number };
  sites: SiteRepository;
}

/** What an approval call decided: the payout moves (`final`), or its first approval is recorded and it waits. */
export interface ApprovalDecision {
  final: boolean;
  required: 1 | 2;
  approvals: Approval[];
}

/** How a payout's approvals read for operators: how many it needs and the ones that count (with when each expires). */
export interface ApprovalsView {
  required: 1 | 2;
  given: Array<Approval & { expiresAt: string | null }>;
}

/**
 * How many approvals a payout of `amount` needs: two above the threshold of its site (a test site's sandbox money
 * never needs two), or of the service when the payout has no site (a house return of unmatched money).
 */
export async function approvalsRequired(deps: FourEyesDeps, siteId: string | null, amount: bigint): Promise<1 | 2> {
  return requiredFor(deps, siteId ? await deps.sites.findById(siteId) : null, amount);
}

function requiredFor(deps: Pick<FourEyesDeps, 'config'>, site: Site | null, amount: bigint): 1 | 2 {
  if (site && !site.livemode) return 1;
  const threshold = site?.dualApprovalAbove ?? deps.config.dualApprovalAboveKurus;
  return amount > threshold ? 2 : 1;
}

/** The approvals recorded on a row (JSON), oldest first; anything unreadable counts as none. */
export function recordedApprovals(json: unknown): Approval[] {
  if (!Array.isArray(json)) return [];
  return json.filter((entry: unknown): entry is Approval => {
    if (typeof entry !== 'object' || entry === null) return false;
    const { operatorId, at } = entry as Partial<Record<keyof Approval, unknown>>;
    return typeof operatorId === 'string' && typeof at === 'string';
  });
}

const windowMs = (deps: Pick<FourEyesDeps, 'config'>) => deps.config.dualApprovalWindowSeconds * 1000;

/** The approvals of a payout still in review that have not expired. */
function standing(deps: Pick<FourEyesDeps, 'clock' | 'config'>, approvals: Approval[]): Approval[] {
  const now = deps.clock.now().getTime();
  return approvals.filter((approval) => now - Date.parse(approval.at) < windowMs(deps));
}

/**
 * An operator approving a payout in review: with one approval required, or with another operator's standing first
 * approval, the payout moves; with none standing, this is its first approval. The operator who gave the standing
 * first approval cannot give the second (409 `second_approver_required`). The sandbox's simulator (a partner's test
 * key) plays every operator and always moves the payout.
 */
export function decideApproval(
  deps: Pick<FourEyesDeps, 'clock' | 'config'>,
  caller: OperatorPrincipal,
  recorded: unknown,
  required: 1 | 2,
  what: string,
): ApprovalDecision {
  const mine: Approval = { operatorId: caller.operatorId, email: caller.email, at: deps.clock.now().toISOString() };
  if (required === 1 || caller.apiKeyId) return { final: true, required, approvals: [mine] };
  const prior = standing(deps, recordedApprovals(recorded));
  const first = prior[0];
  if (!first) return { final: false, required, approvals: [mine] };
  if (first.operatorId === caller.operatorId) {
    const expires = new Date(Date.parse(first.at) + windowMs(deps)).toISOString();
    throw AppError.conflict(
      'second_approver_required',
      `You gave this ${what} its first approval at ${first.at}; above its four-eyes threshold a different operator must give ` +
        `the second (your approval stands until ${expires}). Nothing was changed.`,
    );
  }
  return { final: true, required, approvals: [first, mine] };
}

/**
 * A payout's approvals for operators: while in review, the standing ones with when each expires; once decided, every
 * approval it was given (who approved it).
 */
export function approvalsView(
  deps: Pick<FourEyesDeps, 'clock' | 'config'>,
  status: string,
  recorded: unknown,
  required: 1 | 2,
): ApprovalsView {
  const approvals = recordedApprovals(recorded);
  if (status !== 'PENDING_REVIEW') return { required, given: approvals.map((approval) => ({ ...approval, expiresAt: null })) };
  return {
    required,
    given: standing(deps, approvals).map((approval) => ({
      ...approval,
      expiresAt: new Date(Date.parse(approval.at) + windowMs(deps)).toISOString(),
    })),
  };
}

/** Every approval a decided payout was given (who approved it), without asking its threshold again. */
export function givenApprovals(recorded: unknown): ApprovalsView {
  const approvals = recordedApprovals(recorded);
  return { required: approvals.length > 1 ? 2 : 1, given: approvals.map((approval) => ({ ...approval, expiresAt: null })) };
}

/**
 * Rows of payouts with the approvals each needs (for {@link approvalsView}), asked once per site: `siteOf` names the
 * row's site (null: a house return).
 */
export async function withApprovalsRequired<Row extends { amount: bigint }>(
  deps: FourEyesDeps,
  rows: Row[],
  siteOf: (row: Row) => string | null,
): Promise<Array<Row & { approvalsRequired: 1 | 2 }>> {
  const ids = [...new Set(rows.map(siteOf).filter((id): id is string => id !== null))];
  const sites = new Map(await Promise.all(ids.map(async (id) => [id, await deps.sites.findById(id)] as const)));
  return rows.map((row) => {
    const siteId = siteOf(row);
    return { ...row, approvalsRequired: requiredFor(deps, siteId ? (sites.get(siteId) ?? null) : null, row.amount) };
  });
}
