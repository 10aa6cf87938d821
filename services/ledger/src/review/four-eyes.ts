import type { Prisma, Site } from '@kasa/db';
import { AppError } from '@kasa/http';
import { BOOTSTRAP_OPERATOR_ID, type OperatorPrincipal } from '../shared/operator-principal.js';
import type { Approver, OperatorRepository } from '../operators/operator.repository.js';
import type { SiteRepository } from '../sites/site.repository.js';
import type { Clock } from '../shared/clock.js';

/**
 * Four-eyes approval of payouts (docs/operations.md, Four-eyes): a withdrawal or a return to a sender above its
 * threshold (the site's `dualApprovalAbove`, else DUAL_APPROVAL_ABOVE_KURUS) moves only when two different operators
 * approved it. The first approval is recorded on the record (`approvals`), which stays in review; it stands for
 * DUAL_APPROVAL_WINDOW_SECONDS, then expires and the payout needs two approvals again.
 *
 * Two different operators means two different enabled people, decided on the locked payout: the bootstrap token is
 * no person and gives neither approval; an approval counts only while its operator's account is enabled; and an
 * account never completes four-eyes with the admin who created it or last changed it (operators.created_by and
 * changed_by), who could be holding it.
 */

type Tx = Prisma.TransactionClient;

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
  operators: Pick<OperatorRepository, 'lockApprovers'>;
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
 * never needs two), or of the service when the payout has no site (a house return of unmatched money). `tx`: the
 * caller's transaction, which reads the site when it is not cached (never a second pooled connection).
 */
export async function approvalsRequired(deps: FourEyesDeps, siteId: string | null, amount: bigint, tx?: Tx): Promise<1 | 2> {
  return requiredFor(deps, siteId ? await deps.sites.findById(siteId, tx) : null, amount);
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

/** Why two accounts are not two independent people (the one created or last changed the other), or null. */
function tieBetween(me: Approver, first: Approver): string | null {
  if (first.createdBy === me.id) return 'you created their account';
  if (first.changedBy === me.id) return 'you last changed their account';
  if (me.createdBy === first.id) return 'they created your account';
  if (me.changedBy === first.id) return 'they last changed your account';
  return null;
}

/** The caller's approval (or decision) as a record keeps it: who, and when by the ledger's clock. */
export function approvalBy(deps: Pick<FourEyesDeps, 'clock'>, caller: OperatorPrincipal): Approval {
  return { operatorId: caller.operatorId, email: caller.email, at: deps.clock.now().toISOString() };
}

/** No person: the bootstrap token (configuration), the service's own rules, or a partner's test key playing an operator. */
export function isNoPerson(caller: OperatorPrincipal): boolean {
  return caller.operatorId === BOOTSTRAP_OPERATOR_ID || Boolean(caller.system) || Boolean(caller.apiKeyId);
}

/**
 * An operator approving a payout in review, decided in the approval's transaction with the payout locked: with one
 * approval required, or with another person's standing first approval, the payout moves; with none standing, this
 * is its first approval. Above the threshold (409 `second_approver_required`, nothing changed): the bootstrap token
 * gives no approval; the operator who gave the standing first approval cannot give the second; nor can an operator
 * tied to its giver (the one created or last changed the other's account). A first approval whose operator was
 * disabled since is void: this one becomes the first. The sandbox's simulator (a partner's test key) plays every
 * operator and always moves the payout.
 */
export async function decideApproval(
  deps: Pick<FourEyesDeps, 'clock' | 'config' | 'operators'>,
  tx: Tx,
  caller: OperatorPrincipal,
  recorded: unknown,
  required: 1 | 2,
  what: string,
): Promise<ApprovalDecision> {
  const mine = approvalBy(deps, caller);
  if (required === 1 || caller.apiKeyId) return { final: true, required, approvals: [mine] };
  if (caller.operatorId === BOOTSTRAP_OPERATOR_ID || caller.system) {
    throw AppError.conflict(
      'second_approver_required',
      `Above its four-eyes threshold this ${what} needs the approvals of two people with operator accounts; the bootstrap ` +
        'token is configuration, not a person, and gives neither. Log in as an operator to approve it. Nothing was changed.',
    );
  }
  const prior = standing(deps, recordedApprovals(recorded));
  const people = await deps.operators.lockApprovers(tx, [caller.operatorId, ...prior.map((approval) => approval.operatorId)]);
  const me = people.get(caller.operatorId);
  if (!me || me.disabledAt) throw new AppError('unauthorized', 'The operator account is disabled; nothing was changed.');
  // An approval counts while its giver's account is enabled (the bootstrap token's, given before this rule, never).
  const first = prior.find((approval) => {
    const giver = people.get(approval.operatorId);
    return giver !== undefined && giver.disabledAt === null;
  });
  if (!first) return { final: false, required, approvals: [mine] };
  const expires = new Date(Date.parse(first.at) + windowMs(deps)).toISOString();
  if (first.operatorId === caller.operatorId) {
    throw AppError.conflict(
      'second_approver_required',
      `You gave this ${what} its first approval at ${first.at}; above its four-eyes threshold a different operator must give ` +
        `the second (your approval stands until ${expires}). Nothing was changed.`,
    );
  }
  const tie = tieBetween(me, people.get(first.operatorId) as Approver);
  if (tie) {
    throw AppError.conflict(
      'second_approver_required',
      `${first.email ?? first.operatorId} gave this ${what} its first approval, and ${tie}: above its four-eyes threshold ` +
        `the two approvals must come from two independent people. Another operator must give the second (the first stands ` +
        `until ${expires}). Nothing was changed.`,
    );
  }
  return { final: true, required, approvals: [first, mine] };
}

/**
/**
 * How a kind's refusals name its two people's acts: who made the record (`proposed`, `wrote`) and what the second person
 * does (`apply`, `applied`; `acknowledge`, `acknowledged`).
 */
export interface SecondPersonWords {
  readonly made: string;
  readonly decide: string;
  readonly decided: string;
}

const PROPOSED_AND_APPLIED: SecondPersonWords = { made: 'proposed', decide: 'apply', decided: 'applied' };

/**
 * The second person of a change one operator makes and another decides (a balance adjustment, proposed and applied:
 * always four-eyes, as no bank movement backs it), decided in the deciding transaction with the record locked: the
 * caller must be an enabled person other than its maker and not tied to them (the one created or last changed the
 * other's account). The bootstrap token and the service's own rules are no person: 409 `second_approver_required`,
 * nothing changed. `words` name the two acts in the refusals (a kind whose second person does not "apply" keeps every
 * check). Answers the caller's approval, as the record keeps who decided it.
 */
export async function requireSecondPerson(
  deps: Pick<FourEyesDeps, 'clock' | 'operators'>,
  tx: Tx,
  caller: OperatorPrincipal,
  proposer: { operatorId: string; email: string | null },
  what: string,
  words: SecondPersonWords = PROPOSED_AND_APPLIED,
): Promise<Approval> {
  const proposerId = proposer.operatorId;
  if (isNoPerson(caller)) {
    throw AppError.conflict(
      'second_approver_required',
      `A ${what} is ${words.decided} by a second person with an operator account; the bootstrap token is configuration, not a person. ` +
        'Log in as an operator to decide it. Nothing was changed.',
    );
  }
  if (caller.operatorId === proposerId) {
    throw AppError.conflict(
      'second_approver_required',
      `You ${words.made} this ${what}; a different operator must ${words.decide} it (four-eyes). Nothing was changed.`,
    );
  }
  const people = await deps.operators.lockApprovers(tx, [caller.operatorId, proposerId]);
  const me = people.get(caller.operatorId);
  if (!me || me.disabledAt) throw new AppError('unauthorized', 'The operator account is disabled; nothing was changed.');
  const theirs = people.get(proposerId);
  const tie = theirs ? tieBetween(me, theirs) : null;
  if (tie) {
    throw AppError.conflict(
      'second_approver_required',
      `${proposer.email ?? proposerId} ${words.made} this ${what}, and ${tie}: it must be ${words.made} and ${words.decided} ` +
        `by two independent people. Another operator must ${words.decide} it. Nothing was changed.`,
    );
  }
  return approvalBy(deps, caller);
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
