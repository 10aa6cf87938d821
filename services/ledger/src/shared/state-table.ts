import { AppError } from '@kasa/http';

/** One operator action of a state table: the statuses it may start from and the status it leads to. */
export interface StateMove<Status extends string> {
  from: readonly Status[];
  to: Status;
}

/**
 * The status a move leads to from `current`, or the 409 `refuse` builds (naming `current`) when the record's
 * state table does not allow the move. Each reviewed record keeps its table as data beside its use case
 * (`deposits/deposit.states.ts`, ...), written `as const satisfies Record<Action, StateMove<Status>>`.
 */
export function nextStatus<Status extends string>(move: StateMove<Status>, current: Status, refuse: () => AppError): Status {
  if (move.from.includes(current)) return move.to;
  throw refuse();
}

/** The 409 of a move the table refuses, in the reviewed records' words: `Cannot approve a withdrawal in status SENT; ...`. */
export function cannot(kind: string, verb: string, from: readonly string[], current: string): AppError {
  return AppError.conflict(
    'invalid_transition',
    `Cannot ${verb} a ${kind} in status ${current}; allowed only from ${from.join(' or ')}. Nothing was changed.`,
  );
}
