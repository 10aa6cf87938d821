import type { PrismaClient } from '@kasa/db';
import { AppError } from '@kasa/http';
import type { Logger } from '@kasa/logger';
import { istanbulDayNamed } from '../shared/istanbul-day.js';
import { actorOf } from '../shared/operator-principal.js';
import { writeAudit } from '../shared/audit.repository.js';
import { csvLine, liraDecimal } from '../shared/csv.js';
import { isUuid } from '../shared/http-guards.js';
import type { OperatorRequest } from '../shared/request-context.js';
import { inTransaction } from '../review/transition.js';
import { toRiskFlag } from './risk-flag.views.js';
import type { RiskOutcome, RiskRepository, RiskRule } from './risk.repository.js';

export interface RiskFlagDeps {
  db: PrismaClient;
  risk: RiskRepository;
  clock: { now(): Date };
  logger: Logger;
}

/** The most flags one answer lists: the queue is worked due-soonest first, so the next come as these are reviewed. */
const LIST_LIMIT = 200;
/** The longest report: a year and a day (a leap year's reporting period). */
const MAX_REPORT_DAYS = 366;

const NOT_FOUND = 'No risk flag with this id.';

/** The queue (OPEN, due soonest first) or the reviewed flags (CLOSED, newest review first). */
export async function listRiskFlags(deps: RiskFlagDeps, filter: { status?: 'OPEN' | 'CLOSED'; rule?: RiskRule; siteId?: string }) {
  const now = deps.clock.now();
  const flags = await deps.risk.list({ ...filter, status: filter.status ?? 'OPEN' }, LIST_LIMIT);
  return { data: flags.map((flag) => toRiskFlag(flag, now)) };
}

export async function getRiskFlag(deps: RiskFlagDeps, flagId: string) {
  const flag = isUuid(flagId) ? await deps.risk.find(flagId) : null;
  if (!flag) throw new AppError('not_found', NOT_FOUND);
  return toRiskFlag(flag, deps.clock.now());
}

/**
 * An admin's review of a flag: `no_action` (looked at, nothing to report) or `reported` (reported to the authority;
 * the flag goes into the report export). Read under the flag's lock in the transaction that closes it: a flag is
 * reviewed once (409 `invalid_transition` after). Audited `RISK.REVIEWED` in that transaction.
 */
export async function reviewRiskFlag(
  deps: RiskFlagDeps,
  request: OperatorRequest,
  flagId: string,
  input: { outcome: RiskOutcome; note: string },
) {
  if (!isUuid(flagId)) throw new AppError('not_found', NOT_FOUND);
  const note = input.note.trim();
  if (!note) throw AppError.validation([{ field: 'note', message: 'must not be blank' }], 'Say why in the note.');
  const now = deps.clock.now();
  const closed = await inTransaction(deps, async (tx) => {
    const flag = await deps.risk.lock(tx, flagId);
    if (!flag) throw new AppError('not_found', NOT_FOUND);
    if (flag.status !== 'OPEN') {
      throw AppError.conflict('invalid_transition', `The flag was reviewed already (${flag.outcome ?? flag.status}); nothing was changed.`);
    }
    const updated = await deps.risk.close(tx, flagId, {
      outcome: input.outcome,
      note,
      operatorId: request.caller.operatorId,
      email: request.caller.email,
      at: now,
    });
    await writeAudit(tx, {
      actor: actorOf(request.caller),
      action: 'RISK.REVIEWED',
      entityType: 'risk_flag',
      entityId: flagId,
      // House-wide like every compliance entry: the site is named in the metadata, not as the site's own history.
      metadata: {
        rule: flag.rule,
        outcome: input.outcome,
        note,
        subjectType: flag.subjectType,
        subjectId: flag.subjectId,
        siteId: flag.siteId,
        overdue: flag.dueAt.getTime() < now.getTime(),
      },
    });
    return updated;
  });
  deps.logger.info('risk flag reviewed', {
    requestId: request.requestId,
    flagId,
    rule: closed.rule,
    outcome: input.outcome,
    operatorId: request.caller.operatorId,
  });
  return toRiskFlag(closed, now);
}

/** The report's columns, in order (docs/compliance.md, Risk flags and reports). */
export const RISK_REPORT_COLUMNS = [
  'flag_id',
  'rule',
  'detected_at',
  'due_at',
  'reviewed_at',
  'reviewer_email',
  'site_id',
  'site_name',
  'external_user_id',
  'subject_type',
  'subject_id',
  'reference',
  'amount',
  'currency',
  'sender_name',
  'sender_iban',
  'note',
] as const;

/**
 * The flags reported to the authority whose review falls on the Istanbul days `from` to `to` (both included, at most
 * 366 days), as CSV with the full sender IBAN: the file is for the authority and is never logged. Audited
 * `RISK.REPORT_EXPORTED` with the period and the row count.
 */
export async function riskReport(deps: RiskFlagDeps, request: OperatorRequest, period: { from: string; to: string }) {
  const from = istanbulDayOf('from', period.from).from;
  const to = istanbulDayOf('to', period.to).to;
  const days = Math.round((to.getTime() - from.getTime()) / 86_400_000);
  if (days < 1 || days > MAX_REPORT_DAYS) {
    throw AppError.validation(
      [{ field: 'to', message: `must be on or after from, at most ${MAX_REPORT_DAYS} days of it` }],
      'The report period is not valid.',
    );
  }
  const rows = await deps.risk.report(from, to);
  await writeAudit(deps.db, {
    actor: actorOf(request.caller),
    action: 'RISK.REPORT_EXPORTED',
    entityType: 'risk_report',
    entityId: `${period.from}..${period.to}`,
    metadata: { from: period.from, to: period.to, rows: rows.length },
  });
  let body = csvLine(RISK_REPORT_COLUMNS);
  for (const row of rows) {
    body += csvLine([
      row.id,
      row.rule,
      row.detectedAt.toISOString(),
      row.dueAt.toISOString(),
      row.reviewedAt?.toISOString() ?? null,
      row.reviewedByEmail,
      row.siteId,
      row.siteName,
      row.externalUserId,
      row.subjectType,
      row.subjectId,
      row.reference,
      liraDecimal(row.amount?.toString()),
      row.currency,
      row.senderName,
      row.senderIban,
      row.note,
    ]);
  }
  return { filename: `kasa-risk-report-${period.from}-${period.to}.csv`, body, rows: rows.length };
}

/** {@link istanbulDayNamed} naming the field it read. */
function istanbulDayOf(field: 'from' | 'to', date: string) {
  try {
    return istanbulDayNamed(date);
  } catch {
    throw AppError.validation(
      [{ field, message: 'must be a calendar day written YYYY-MM-DD, e.g. 2026-01-31' }],
      'The report period is not valid.',
    );
  }
}
